import { writeFile } from 'node:fs/promises'
import { tokensByChain } from '../contracts/addresses'
import { subscribeNewHeads } from '../lib/newHeads'
import { API_VERSIONS, type DevnetManifest, type StartOptions } from '../spec'
import { createDepositProcessor, type DepositProcessor } from './deposits'
import { type AnvilLauncher, earlyAnvilLauncher } from './devnet/anvil'
import { type ChainSender, createChainSender } from './devnet/chainSender'
import { devnetTransport } from './devnet/devnetTransport'
import { type Devnet, startDevnet } from './devnet/startDevnet'
import { createEventBus } from './events/eventBus'
import { createExplorer } from './explorer/createExplorer'
import { depositFaultDecorators, withDepositFaults } from './faultInjection/deposits'
import { faultControl } from './faultInjection/http/control'
import { withHttpFaults } from './faultInjection/http/httpFaults'
import {
  claimAfterFill,
  withIntentFaults,
  withSignatureFaults,
  withVerifyFaults,
} from './faultInjection/intents'
import { quoteExpiry, seeHoldingsFaults, withQuotingFaults } from './faultInjection/quoting'
import { withSettlementFaults } from './faultInjection/settlement'
import { withdrawalBound, withWithdrawalFaults } from './faultInjection/withdrawals'
import { createFaults, type Faults } from './faults/faults'
import type { HttpServices } from './http/domainServices'
import { DEFAULT_API_KEY, DEFAULT_HOST, startService } from './http/startService'
import { createIntentService } from './intents/intentService'
import { createIntentStore, type IntentStore } from './intents/intentStore'
import type { SignedIntent } from './intents/types'
import { createPriceTable } from './prices/prices'
import { createBalanceClients } from './quoting/createBalanceClients'
import { createBalanceReader } from './quoting/createBalanceReader'
import { createQuotingService, type QuotingServiceInstance } from './quoting/createQuotingService'
import { FEE_MODEL } from './quoting/fees'
import { createGasPrices, type GasPriceTable } from './quoting/gasPrices'
import { createQuoteStore } from './quoting/quoteStore'
import { createStoredQuoteCodec } from './quoting/toStoredQuote'
import type { StoredQuotedIntent } from './quoting/types'
import { createSettlement, type Settlement } from './settlement/createSettlement'
import { verifySubmission } from './settlement/verifySubmission'
import { createAllocator } from './signing/allocator'
import { startIdleCollector } from './util/idleCollector'
import { removeStaleTempFiles } from './util/persistence'
import { createWithdrawalService } from './withdrawals/withdrawals'

/** Default lifetime of a blanc quote, in seconds (`--quote-ttl`). */
export const DEFAULT_QUOTE_TTL_SECONDS = 300

/**
 * Parameters of {@link startSimulator}: every start option (spec/startOptions.ts, the
 * one list behind `up`'s flags and the setups' options), and what only code can pass.
 */
export type StartSimulatorParameters = StartOptions & {
  /** More keys the service accepts, each with its own per-key state (the conformance runner's simulator). */
  extraApiKeys?: readonly string[] | undefined
  /** How often the deposit processor polls the chains, ms (default 250; the conformance runner's simulator polls faster). */
  depositPollIntervalMs?: number | undefined
  /** How often it polls while each chain's new blocks wake it (Anvil's newHeads over WebSocket), ms (default 1000). */
  depositHeadsPollIntervalMs?: number | undefined
  /** Memory budget of the live blanc quotes, in bytes (default 512 MiB); past it new quotes answer 503 QUOTE_STORE_FULL. */
  quoteStoreBytes?: number | undefined
  faults?: Faults | undefined
  logger?: boolean | undefined
  log?: ((line: string) => void) | undefined
  /**
   * How the devnet starts each Anvil (startDevnet's `launchAnvil`). Default: the Anvils
   * bin/intent-devnet.js started before the code loaded, when it could, else startAnvil.
   */
  launchAnvil?: AnvilLauncher | undefined
  /** Start the chains from the baked boot state when it applies (startDevnet's `bootState`; default false). */
  bootState?: boolean | undefined
  /** The devnet's time at start, unix seconds (startDevnet's `clockAt`: a replay's recorded instant). */
  clockAt?: number | undefined
}

/** A running simulator: chains, domain services and the HTTP service. */
export type Simulator = {
  baseUrl: string
  apiKey: string
  devnet: Devnet
  services: HttpServices
  faults: Faults
  manifest(): DevnetManifest
  /** Stops the HTTP service, the domain services, then the chains (dumping state with a state dir). */
  close(): Promise<void>
}

/**
 * Starts the whole simulator: the devnet chains with our contracts, the domain services on
 * top of them, and the HTTP service in front. This is the one place where they are wired
 * together; `intent-devnet up`, the conformance runner and the end-to-end tests all use it.
 *
 * @example
 * const sim = await startSimulator({ port: 0, chainIds: [10, 8453] })
 * await fetch(`${sim.baseUrl}/health`)
 * await sim.close()
 */
export async function startSimulator(parameters: StartSimulatorParameters = {}): Promise<Simulator> {
  const quoteTtlSeconds = parameters.quoteTtlSeconds ?? DEFAULT_QUOTE_TTL_SECONDS
  // Checked before any chain starts: a bad --gas-price fails at once.
  const gas = createGasPrices(parameters.gasPrices)
  const automine = parameters.blockTime === undefined
  const faults = parameters.faults ?? createFaults()
  // The bin starts Anvils while the code loads; they are adopted here, and the unused ones stopped.
  const early = parameters.launchAnvil ? undefined : earlyAnvilLauncher()
  const devnet = await startDevnet({
    chainIds: parameters.chainIds,
    host: parameters.host,
    stateDir: parameters.stateDir,
    forks: parameters.forks,
    basePort: parameters.rpcPort,
    mnemonic: parameters.mnemonic,
    accountCount: parameters.accountCount,
    balance: parameters.balance,
    blockTime: parameters.blockTime,
    log: parameters.log,
    launchAnvil: parameters.launchAnvil ?? early?.launch,
    // Keep-alive, a turn's calls in one JSON-RPC batch, over the lean loopback client.
    transport: (rpcUrl) => devnetTransport(rpcUrl, automine),
    bootState: parameters.bootState,
    clockAt: parameters.clockAt,
  }).finally(() => early?.release())
  // Temp files of writes a kill cut short (the devnet refused the dir if another run used it).
  if (parameters.stateDir) {
    const removed = await removeStaleTempFiles(parameters.stateDir)
    if (removed.length) parameters.log?.(`removed ${removed.length} temporary file(s) a previous run left`)
  }
  // Memory back to idle once a burst of load is over (simulator/util/idleCollector.ts).
  const collector = startIdleCollector()
  let domain: DomainServices | undefined
  try {
    domain = await createServices({
      devnet,
      faults,
      stateDir: parameters.stateDir,
      quoteTtlSeconds,
      quoteStoreBytes: parameters.quoteStoreBytes,
      gas,
      swapFeeBps: parameters.swapFeeBps,
      depositPollIntervalMs: parameters.depositPollIntervalMs,
      depositHeadsPollIntervalMs: parameters.depositHeadsPollIntervalMs,
      automine,
      log: parameters.log,
    })
    const { services } = domain
    const service = await startService({
      // A free port unless one is asked for: tests side by side never collide (the CLI asks for 4000).
      port: parameters.port ?? 0,
      host: parameters.host ?? DEFAULT_HOST,
      apiKey: parameters.apiKey ?? DEFAULT_API_KEY,
      extraApiKeys: parameters.extraApiKeys,
      strictVersion: parameters.strictVersion,
      requestTimeoutMs: parameters.requestTimeoutMs,
      logger: parameters.logger,
      services,
      // Every HTTP fault is a hook of this one plugin; the HTTP plugins know none of them.
      plugins: [withHttpFaults(faults)],
    })
    devnet.setServiceInfo({
      baseUrl: service.baseUrl,
      apiKey: service.apiKey,
      versions: [...API_VERSIONS],
      defaultVersion: API_VERSIONS[0],
      strictVersion: parameters.strictVersion === true,
      quoteTtlSeconds,
      // What a recording captures of the service's configuration (conformance/record).
      swapFeeBps: parameters.swapFeeBps ?? Number(FEE_MODEL.swapBps),
      gasPrices: Object.fromEntries(
        devnet.chains.map((chain) => [String(chain.chainId), gas.gwei(chain.chainId)]),
      ),
    })
    if (parameters.manifestPath)
      await writeFile(parameters.manifestPath, `${JSON.stringify(devnet.manifest(), null, 2)}\n`)
    let closing: Promise<void> | undefined
    return {
      baseUrl: service.baseUrl,
      apiKey: service.apiKey,
      devnet,
      services,
      faults,
      manifest: () => devnet.manifest(),
      close() {
        closing ??= (async () => {
          collector.stop()
          await service.close()
          await domain?.stop()
          await devnet.stop()
        })()
        return closing
      },
    }
  } catch (error) {
    collector.stop()
    await domain?.stop().catch(() => {})
    await devnet.stop()
    throw error
  }
}

/** Parameters of {@link createServices}. */
export type CreateServicesParameters = {
  devnet: Devnet
  faults: Faults
  /** Makes intents and the deposit processor durable (the chains' state is the devnet's). */
  stateDir?: string | undefined
  quoteTtlSeconds?: number | undefined
  /** Memory budget of the live blanc quotes, in bytes (default 512 MiB). */
  quoteStoreBytes?: number | undefined
  swapFeeBps?: number | undefined
  /** The gas prices quotes charge (default: the realistic defaults of simulator/quoting/gasPrices.ts). */
  gas?: GasPriceTable | undefined
  /** The relayer waits this long before taking up a new intent (a slow relayer; default 0). */
  pickupDelayMs?: number | undefined
  /** How often the deposit processor polls the chains, ms (default 250). */
  depositPollIntervalMs?: number | undefined
  /** How often it polls while each chain's new blocks wake it, ms (default 1000). */
  depositHeadsPollIntervalMs?: number | undefined
  /** The chains mine each transaction as it arrives (no block time): the relayer's sends come back with their receipts (createChainSender). Default false. */
  automine?: boolean | undefined
  log?: ((line: string) => void) | undefined
}

/** The domain services on a running devnet, started; `stop` stops them (not the devnet). */
export type DomainServices = {
  services: HttpServices
  quoting: QuotingServiceInstance
  intentStore: IntentStore<SignedIntent>
  settlement: Settlement
  depositProcessor: DepositProcessor
  stop(): Promise<void>
}

/**
 * Builds every domain service on a running devnet and hands each its collaborators: the one
 * place where services are wired (startSimulator calls it; tests that need the services without
 * HTTP call it too). Loads durable state, starts the relayer and the deposit watcher.
 *
 * @example
 * const devnet = await startDevnet({ chainIds: [10, 8453] })
 * const { services, stop } = await createServices({ devnet, faults: createFaults() })
 * await services.quoting.quoteEvery(request)
 */
export async function createServices(parameters: CreateServicesParameters): Promise<DomainServices> {
  const { devnet, faults, stateDir, log } = parameters
  const automine = parameters.automine ?? false
  const stops: (() => Promise<void>)[] = []
  const stop = async () => {
    for (const next of stops.splice(0).reverse()) await next()
  }
  try {
    // One price table for the whole service: quotes, deposit rules and POST /_devnet/prices.
    const prices = createPriceTable()
    // One event bus: the intent store and the deposit processor publish, the explorer's feed subscribes.
    const events = createEventBus()
    // One sender per chain for everything the relayer sends (fills, claims, deposit payouts):
    // the relayer's nonces stay in one queue per chain.
    const senders = new Map<number, ChainSender>(
      devnet.chains.map((chain) => [chain.chainId, createChainSender({ chain, automine })]),
    )
    // Faults wrap the domain (simulator/faultInjection): decorators put around the services and
    // their parts here, so no domain module knows the switchboard.
    const depositProcessor = withDepositFaults(
      createDepositProcessor({
        chains: devnet.chains.map((chain) => ({
          chainId: chain.chainId,
          publicClient: chain.publicClient,
          relayer: chain.relayerClient,
          tokens: tokensByChain[chain.chainId] ?? [],
          send: (tx, options) => senders.get(chain.chainId)!.send(tx, options),
          // Anvil serves WebSocket on its RPC port: each block mined wakes the watcher at once.
          watchHeads: (handlers) => subscribeNewHeads(chain.rpcUrl, handlers),
        })),
        prices,
        clock: devnet,
        stateDir,
        onError: (error) => log?.(`deposit processor: ${(error as Error).message}`),
        log,
        chainsMayLag: () => devnet.chainsMayLag(),
        pollIntervalMs: parameters.depositPollIntervalMs,
        headsPollIntervalMs: parameters.depositHeadsPollIntervalMs,
        events,
        decorate: depositFaultDecorators(faults),
      }),
      faults,
    )
    await depositProcessor.start()
    stops.push(() => depositProcessor.stop())

    const quotes = createQuoteStore<StoredQuotedIntent>({
      clock: devnet,
      ttlSeconds: parameters.quoteTtlSeconds ?? DEFAULT_QUOTE_TTL_SECONDS,
      // Each route kept as compressed JSON (~340 B): a full lifetime at the fastest rate fits the budget.
      codec: createStoredQuoteCodec(devnet.keys.server.account),
      maxBytes: parameters.quoteStoreBytes,
      isExpired: quoteExpiry(faults),
    })
    const quoting = withQuotingFaults(
      createQuotingService({
        // The quoting's own RPC clients (batched reads, counted round trips), built here.
        balances: createBalanceReader({ clients: createBalanceClients({ chains: devnet.chains }) }),
        server: devnet.keys.server.account,
        allocatorSigner: devnet.keys.allocator.account,
        clock: devnet,
        quotes,
        swapFeeBps: parameters.swapFeeBps,
        gas: parameters.gas,
        prices,
        seeHoldings: seeHoldingsFaults(faults),
      }),
      faults,
      devnet.chains.map((c) => c.chainId),
    )

    const intentStore = createIntentStore<SignedIntent>({ stateDir, now: () => devnet.now(), events })
    await intentStore.load()
    const settlement = createSettlement({
      devnet,
      store: intentStore,
      // The relayer's own sends (fills, claims) with the settlement faults around them; the
      // deposit processor's payouts go through the plain senders (the same queues).
      senders: withSettlementFaults(senders, faults),
      pickupDelayMs: parameters.pickupDelayMs,
      log,
      claimAfterFill: claimAfterFill(faults),
    })
    await settlement.start()
    stops.push(() => settlement.stop())
    const serverAddress = devnet.keys.server.address
    const verifyAs = (destinationAlwaysSigned: boolean) =>
      withSignatureFaults(
        (signed) => verifySubmission({ devnet, signed, serverAddress, destinationAlwaysSigned }),
        faults,
      )
    const intents = withIntentFaults(
      createIntentService({
        store: intentStore,
        relayer: settlement,
        verify: withVerifyFaults({ operation: verifyAs(false), quoted: verifyAs(true) }, faults),
        quotes,
      }),
      { faults, store: intentStore, relayer: settlement },
    )

    const clients = Object.fromEntries(devnet.chains.map((chain) => [chain.chainId, chain.publicClient]))
    const withdrawals = withWithdrawalFaults(
      createWithdrawalService({
        allocator: createAllocator({ signer: devnet.keys.allocator.account, clients }),
        clients,
        clock: devnet,
        exceeds: withdrawalBound(faults),
      }),
      faults,
    )

    const { manifest, snapshot, health } = devnet
    const services: HttpServices = {
      clock: devnet,
      devnet: {
        // The devnet's own actions (simulator/devnet/actions), bound to its state: no forwarding.
        manifest,
        snapshot,
        health,
        // Webhook retries the new time made due go at once, not at the outbox's next wake-up.
        async advanceClock(seconds) {
          const advanced = await devnet.advanceClock(seconds)
          depositProcessor.outbox.clockMoved()
          return advanced
        },
        // A revert takes the relayer's nonces back: the senders count on from the chains again
        // (a send with the old, higher nonce is one Anvil keeps pending, and the intent hangs).
        async revert(id) {
          const reverted = await devnet.revert(id)
          if (reverted) {
            for (const chain of devnet.chains)
              senders.set(chain.chainId, createChainSender({ chain, automine }))
            depositProcessor.outbox.clockMoved()
          }
          return reverted
        },
      },
      prices,
      quoting: withQuotingFaults(
        quoting,
        faults,
        devnet.chains.map((c) => c.chainId),
      ),
      intents,
      withdrawals,
      depositProcessor,
      explorer: createExplorer({ intents: intentStore, quotes, chains: devnet.chains, clock: devnet }),
      events,
      faults: faultControl(faults),
    }
    return { services, quoting, intentStore, settlement, depositProcessor, stop }
  } catch (error) {
    await stop().catch(() => {})
    throw error
  }
}
