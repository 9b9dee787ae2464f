import { writeFile } from 'node:fs/promises'
import { API_VERSIONS, type DevnetManifest } from '../conformance/spec'
import { tokensByChain } from '../contracts/addresses'
import { DEFAULT_API_KEY, DEFAULT_HOST, DEFAULT_PORT, startService } from './cli/up'
import { createDepositProcessor, createDepositProcessorService } from './deposits'
import { type Devnet, startDevnet } from './devnet/startDevnet'
import { createFaults, type Faults } from './faults'
import type { HttpServices } from './http/domainServices'
import { createPriceTable } from './quoting/prices'
import { createQuotingService } from './quoting/quotingService'
import { type ChainSender, createChainSender } from './settlement/chainSender'
import { createSettlementStack } from './settlement/createSettlementStack'
import { createAllocator } from './signing/allocator'
import { createWithdrawalService } from './signing/withdrawals'

/** Default lifetime of a blanc quote, in seconds (`--quote-ttl`). */
export const DEFAULT_QUOTE_TTL_SECONDS = 300

/** Parameters of {@link startSimulator}. */
export type StartSimulatorParameters = {
  port?: number | undefined
  host?: string | undefined
  apiKey?: string | undefined
  strictVersion?: boolean | undefined
  /** Chain ids to run (default 1, 10, 8453, 42161). */
  chainIds?: readonly number[] | undefined
  /** Makes the run resumable: chain state and the service's durable data live here. */
  stateDir?: string | undefined
  /** chainId → RPC URL to fork. */
  forks?: Record<number, string> | undefined
  quoteTtlSeconds?: number | undefined
  /** Swap fee in basis points of the swapped value (`--swap-fee-bps`, default 10; docs/quoting.md). */
  swapFeeBps?: number | undefined
  /** Write the manifest as JSON to this path once the service listens. */
  manifestPath?: string | undefined
  faults?: Faults | undefined
  logger?: boolean | undefined
  log?: ((line: string) => void) | undefined
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
  const faults = parameters.faults ?? createFaults()
  const devnet = await startDevnet({
    chainIds: parameters.chainIds,
    host: parameters.host,
    stateDir: parameters.stateDir,
    forks: parameters.forks,
    log: parameters.log,
  })
  const stops: (() => Promise<void>)[] = []
  try {
    // One price table for the whole service: quotes, deposit rules and POST /_devnet/prices.
    const prices = createPriceTable()
    // One sender per chain for everything the relayer sends (fills, claims, deposit payouts).
    const senders = new Map<number, ChainSender>(
      devnet.chains.map((chain) => [chain.chainId, createChainSender({ chain })]),
    )
    const depositProcessor = createDepositProcessor({
      chains: devnet.chains.map((chain) => ({
        chainId: chain.chainId,
        publicClient: chain.publicClient,
        relayer: chain.relayerClient,
        tokens: tokensByChain[chain.chainId] ?? [],
        send: (tx, options) => senders.get(chain.chainId)!.send(tx, options),
      })),
      prices,
      clock: devnet,
      stateDir: parameters.stateDir,
      onError: (error) => parameters.log?.(`deposit processor: ${(error as Error).message}`),
      faults,
    })
    await depositProcessor.start()
    stops.push(() => depositProcessor.stop())

    const quoting = createQuotingService({
      chains: devnet.chains,
      server: devnet.keys.server.account,
      allocatorSigner: devnet.keys.allocator.account,
      clock: devnet,
      ttlSeconds: quoteTtlSeconds,
      swapFeeBps: parameters.swapFeeBps,
      prices,
      faults,
    })
    const settlement = await createSettlementStack({
      devnet,
      stateDir: parameters.stateDir,
      quotes: quoting.quotes,
      senders,
      log: parameters.log,
      faults,
    })
    stops.push(() => settlement.stop())
    const clients = Object.fromEntries(devnet.chains.map((chain) => [chain.chainId, chain.publicClient]))
    const withdrawals = createWithdrawalService({
      allocator: createAllocator({ signer: devnet.keys.allocator.account, clients }),
      clients,
      clock: devnet,
      faults,
    })

    const services: HttpServices = {
      clock: devnet,
      devnet,
      prices,
      quoting,
      intents: settlement.service,
      withdrawals,
      depositProcessor: (tenant) => createDepositProcessorService(depositProcessor, tenant),
    }
    const service = await startService({
      port: parameters.port ?? DEFAULT_PORT,
      host: parameters.host ?? DEFAULT_HOST,
      apiKey: parameters.apiKey ?? DEFAULT_API_KEY,
      strictVersion: parameters.strictVersion,
      logger: parameters.logger,
      services,
      faults,
    })
    devnet.setServiceInfo({
      baseUrl: service.baseUrl,
      apiKey: service.apiKey,
      versions: [...API_VERSIONS],
      defaultVersion: API_VERSIONS[0],
      strictVersion: parameters.strictVersion === true,
      quoteTtlSeconds,
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
          await service.close()
          for (const stop of stops.reverse()) await stop()
          await devnet.stop()
        })()
        return closing
      },
    }
  } catch (error) {
    for (const stop of stops.reverse()) await stop().catch(() => {})
    await devnet.stop()
    throw error
  }
}
