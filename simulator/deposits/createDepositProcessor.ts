import { createHash } from 'node:crypto'
import { join } from 'node:path'
import {
  type Address,
  type Chain,
  encodeFunctionData,
  erc20Abi,
  getAddress,
  type Hash,
  type Hex,
  type LocalAccount,
  type PublicClient,
  type Transport,
  type WalletClient,
  zeroAddress,
} from 'viem'
import type { DepositProcessorParams } from '../../conformance/spec'
import type { TokenInfo } from '../../contracts/addresses'
import { createChainSender, type SendOptions } from '../devnet/chainSender'
import type { Faults } from '../faults/faults'
import type { PriceTable } from '../prices/prices'
import { type ObservedDeposit, scanBlocks } from './chainWatcher'
import {
  type ConfigStoreState,
  createConfigStore,
  createTokenDirectory,
  type DepositProcessorConfiguration,
  type Registration,
} from './configStore'
import { readJson, writeJsonAtomic } from './persistence'
import { evaluateDeposit, planPayout } from './rules'
import { createWebhookOutbox, type RetryPolicy, type WebhookTarget } from './webhookOutbox'

/** What the processor needs of one chain: read access, the relayer that pays out, and its tokens. */
export type DepositChain = {
  chainId: number
  publicClient: PublicClient
  /** The relayer (a local key), funded with ether and every token: it sends the bridged tokens. */
  relayer: WalletClient<Transport, Chain | undefined, LocalAccount>
  /** The ERC-20 tokens the devnet knows on this chain (native ether is implied). */
  tokens: readonly TokenInfo[]
  /**
   * Sends a relayer transaction through the sender the settlement shares, so the two never
   * race for the relayer's nonces (a ChainSender's `send`; `options.beforeBroadcast` must be
   * called before broadcasting). Without it, the processor makes its own sender over `relayer`.
   */
  send?:
    | ((tx: { to: Address; data: Hex; value?: bigint | undefined }, options?: SendOptions) => Promise<Hash>)
    | undefined
}

/** Deposit statuses this processor uses (a subset of the public service's). */
export type DepositStatus = 'processing' | 'completed' | 'rejected' | 'failed'

/** Error code of a deposit that passed the rules but could not be paid out (see docs/deposit-processor.md). */
export const BRIDGE_ERROR_CODE = 'BRIDGE-1'

/** A deposit, as stored. */
export type DepositRecord = {
  seq: number
  tenantId: string
  id: string
  account: Address
  chainId: number
  token: Address
  symbol: string | null
  amount: string
  sender: Address
  transactionHash: Hash
  blockNumber: string
  logIndex: number | null
  status: DepositStatus
  errorCode?: string
  message?: string
  target?: {
    chainId: number
    token: Address
    symbol: string
    amount: string
    grossAmount: string
    fees: { gas: string; bridging: string }
    gasSponsored: boolean
    bridgingSponsored: boolean
  }
  bridgeTransactionHash?: Hash
  /**
   * The payout transaction as signed, recorded before it is broadcast (internal, never shown): a
   * restart finds it on chain or broadcasts it again, and never sends a second payout.
   */
  bridgeRawTransaction?: Hex
  createdAt: string
  updatedAt: string
}

/** Parameters of {@link createDepositProcessor}. */
export type CreateDepositProcessorParameters = {
  chains: readonly DepositChain[]
  prices: PriceTable
  /** The devnet clock (timestamps of deposits and events). Default: the wall clock. */
  clock?: { nowMs(): number } | undefined
  /** With a dir, configuration, registrations, deposits, chain cursors and the outbox survive a restart. */
  stateDir?: string | undefined
  /** Milliseconds between polls; null: no automatic polling (call `pollOnce`). Default 250. */
  pollIntervalMs?: number | null | undefined
  /** Largest block range of one scan. Default 500. */
  maxBlockRange?: number | undefined
  webhooks?: { retry?: Partial<RetryPolicy> | undefined; concurrency?: number | undefined } | undefined
  /** Called with errors of the automatic poll (the poll carries on). */
  onError?: ((error: unknown) => void) | undefined
  /** The simulator's fault registry (`deposits.*` and `webhooks.*` faults); none by default. */
  faults?: Faults | undefined
}

/** The code a rejected deposit reports under the fault `deposits.wrong-error-code`. */
const WRONG_ERROR_CODE: Record<string, string> = {
  'TOKEN-3': 'BALANCE-3',
  'BALANCE-3': 'TOKEN-3',
  'BRIDGE-5': 'BALANCE-3',
}

type PersistedState = {
  version: 1
  config: ConfigStoreState
  cursors: Record<string, string>
  deposits: DepositRecord[]
}

/** Query of {@link DepositProcessor.listDeposits}. */
export type ListDepositsQuery = {
  account?: string | undefined
  status?: string | undefined
  txHash?: string | undefined
  limit?: number | undefined
  cursor?: string | undefined
}

/** The deposit processor. */
export type DepositProcessor = ReturnType<typeof createDepositProcessor>

/** The stored id of a tenant: a digest of its API key, so the state dir never holds keys. */
export function tenantIdOf(tenant: string): string {
  return createHash('sha256').update(`deposit-processor:${tenant}`).digest('hex').slice(0, 32)
}

function eventIdOf(tenantId: string, depositId: string, type: string): string {
  return `evt_${createHash('sha256').update(`${tenantId}|${depositId}|${type}`).digest('hex').slice(0, 32)}`
}

/**
 * Creates the deposit processor: per-tenant configuration, a watcher over every chain, the
 * rules (TOKEN-3, BALANCE-3, BRIDGE-5), real payouts by the relayer on the target chain, and
 * the signed webhook outbox.
 *
 * @example
 * const processor = createDepositProcessor({ chains, prices: createPriceTable(), stateDir: '.state' })
 * await processor.start()
 * await processor.setup('api-key', { webhookUrl: 'http://127.0.0.1:9000/hook', webhookSecret: 's' })
 * processor.register('api-key', { account, targetChainId: 8453 })
 */
export function createDepositProcessor(parameters: CreateDepositProcessorParameters) {
  const chains = new Map(parameters.chains.map((chain) => [chain.chainId, chain]))
  const nowMs = () => parameters.clock?.nowMs() ?? Date.now()
  const isoNow = () => new Date(nowMs()).toISOString()
  const statePath = parameters.stateDir ? join(parameters.stateDir, 'deposit-processor.json') : undefined
  const maxBlockRange = BigInt(parameters.maxBlockRange ?? 500)
  const pollIntervalMs = parameters.pollIntervalMs === undefined ? 250 : parameters.pollIntervalMs
  const faults = parameters.faults

  const persisted = statePath ? readJson<PersistedState>(statePath) : undefined
  const tokens = createTokenDirectory(Object.fromEntries(parameters.chains.map((c) => [c.chainId, c.tokens])))
  const config = createConfigStore({ tokens, state: persisted?.config })
  const cursors = new Map<number, bigint>(
    Object.entries(persisted?.cursors ?? {}).map(([chainId, block]) => [Number(chainId), BigInt(block)]),
  )
  const deposits = new Map<string, DepositRecord>((persisted?.deposits ?? []).map((d) => [d.id, d]))
  let seq = Math.max(0, ...[...deposits.values()].map((d) => d.seq))

  const outbox = createWebhookOutbox({
    target: (tenantId): WebhookTarget | undefined => {
      const current = config.config(tenantId)
      if (!current.webhookUrl) return undefined
      let secret = current.webhookSecret
      // Faults: sign with another key, sign without a secret, or drop the signature.
      if (secret && faults?.has('webhooks.wrong-secret')) secret = `${secret}-wrong`
      if (!secret && faults?.has('webhooks.sign-without-secret')) secret = 'intent-devnet-fault'
      if (faults?.has('webhooks.drop-signature')) secret = null
      return { url: current.webhookUrl, secret }
    },
    stateDir: parameters.stateDir,
    retry: parameters.webhooks?.retry,
    concurrency: parameters.webhooks?.concurrency,
    now: nowMs,
  })

  const save = () => {
    if (!statePath) return
    const state: PersistedState = {
      version: 1,
      config: config.snapshot(),
      cursors: Object.fromEntries([...cursors].map(([chainId, block]) => [chainId, block.toString()])),
      deposits: [...deposits.values()],
    }
    writeJsonAtomic(statePath, state)
  }

  const relayers = () => parameters.chains.map((chain) => chain.relayer.account.address)

  // Chains given without a shared sender get one of their own over the relayer (created on first use).
  const ownSenders = new Map<number, NonNullable<DepositChain['send']>>()
  const senderOf = (chain: DepositChain): NonNullable<DepositChain['send']> => {
    if (chain.send) return chain.send
    let send = ownSenders.get(chain.chainId)
    if (!send) {
      const sender = createChainSender({
        chain: { chainId: chain.chainId, publicClient: chain.publicClient, relayerClient: chain.relayer },
      })
      send = (tx, options) => sender.send(tx, options)
      ownSenders.set(chain.chainId, send)
    }
    return send
  }

  /**
   * Where a recorded payout transaction stands after a restart: mined (its receipt), or gone. It
   * may have been recorded and never broadcast (a crash in between): then the very same signed
   * transaction is broadcast now. Gone means it is not on chain and cannot be any more (never
   * broadcast and its nonce since used, or dropped): sending a new payout is then safe.
   */
  async function findPayout(chain: DepositChain, record: DepositRecord) {
    const hash = record.bridgeTransactionHash as Hash
    const mined = () => chain.publicClient.getTransactionReceipt({ hash }).catch(() => undefined)
    const receipt = await mined()
    if (receipt) return receipt
    const known = await chain.publicClient.getTransaction({ hash }).catch(() => undefined)
    if (!known && record.bridgeRawTransaction) {
      const sent = await chain.publicClient
        .sendRawTransaction({ serializedTransaction: record.bridgeRawTransaction })
        .then(
          () => true,
          () => false,
        )
      // Refused (its nonce is taken): mined meanwhile, or never will be.
      if (!sent) return mined()
    } else if (!known) return undefined
    return chain.publicClient.waitForTransactionReceipt({ hash })
  }

  const depositData = (record: DepositRecord) => ({
    transactionHash: record.transactionHash,
    chain: `eip155:${record.chainId}`,
    token: record.token,
    symbol: record.symbol,
    amount: record.amount,
    sender: record.sender,
  })

  const emit = (record: DepositRecord, type: string, data: Record<string, unknown>) =>
    outbox.enqueue({
      tenant: record.tenantId,
      type,
      eventId: eventIdOf(record.tenantId, record.id, type),
      data: { depositId: record.id, account: record.account, ...data, deposit: depositData(record) },
    })

  const update = (record: DepositRecord, changes: Partial<DepositRecord>) => {
    Object.assign(record, changes, { updatedAt: isoNow() })
  }

  const fail = (record: DepositRecord, status: DepositStatus, errorCode: string, message: string) => {
    update(record, { status, errorCode, message })
    emit(record, 'bridge-failed', { errorCode, message })
  }

  const targetTokenOf = (registration: Registration, token: TokenInfo | undefined): TokenInfo | undefined => {
    if (registration.targetToken) return tokens.token(registration.targetChainId, registration.targetToken)
    return token ? tokens.bySymbol(registration.targetChainId, token.symbol) : undefined
  }

  /** Records a newly seen deposit and applies the rules; accepted deposits stay `processing` until paid out. */
  function receive(observed: ObservedDeposit): void {
    const registration = config.registration(observed.account)
    if (!registration || deposits.has(observed.id)) return
    const token = tokens.token(observed.chainId, observed.token)
    const now = isoNow()
    const record: DepositRecord = {
      seq: ++seq,
      tenantId: registration.tenant,
      id: observed.id,
      account: getAddress(observed.account),
      chainId: observed.chainId,
      token: getAddress(observed.token),
      symbol: token?.symbol ?? null,
      amount: observed.amount.toString(),
      sender: getAddress(observed.sender),
      transactionHash: observed.transactionHash,
      blockNumber: observed.blockNumber.toString(),
      logIndex: observed.logIndex,
      status: 'processing',
      createdAt: now,
      updatedAt: now,
    }
    deposits.set(record.id, record)
    emit(record, 'deposit-received', {})
    const targetToken = targetTokenOf(registration, token)
    const tenantConfig = config.config(registration.tenant)
    const verdict = evaluateDeposit({
      chainId: observed.chainId,
      token,
      tokenAddress: observed.token,
      amount: observed.amount,
      targetToken,
      config: faults?.has('deposits.ignore-whitelist')
        ? { ...tenantConfig, depositWhitelist: {} }
        : tenantConfig,
      prices: parameters.prices,
    })
    if (!verdict.accepted) {
      const errorCode = faults?.has('deposits.wrong-error-code')
        ? (WRONG_ERROR_CODE[verdict.errorCode] ?? verdict.errorCode)
        : verdict.errorCode
      fail(record, 'rejected', errorCode, verdict.message)
    } else if (!targetToken)
      fail(
        record,
        'failed',
        BRIDGE_ERROR_CODE,
        `No counterpart of ${token?.symbol} on chain ${registration.targetChainId}; register a targetToken.`,
      )
  }

  /** Pays out one accepted deposit: the relayer sends the target token on the target chain. */
  async function payOut(record: DepositRecord): Promise<void> {
    const registration = config.registration(record.account)
    const source = tokens.token(record.chainId, record.token)
    if (!record.target) {
      const targetToken = registration && source ? targetTokenOf(registration, source) : undefined
      const chain = registration ? chains.get(registration.targetChainId) : undefined
      if (!registration || !source || !targetToken || !chain) {
        fail(record, 'failed', BRIDGE_ERROR_CODE, 'The account is no longer registered to a known target.')
        return save()
      }
      const [gasPrice, code] = await Promise.all([
        chain.publicClient.getGasPrice(),
        chain.publicClient.getCode({ address: record.account }),
      ])
      const plan = planPayout({
        amount: BigInt(record.amount),
        token: source,
        targetToken,
        sponsorship: config.config(record.tenantId).sponsorship[`eip155:${record.chainId}`],
        accountDeployed: code !== undefined && code !== '0x',
        gasPrice,
        prices: parameters.prices,
      })
      if (plan.amount <= 0n) {
        fail(
          record,
          'failed',
          BRIDGE_ERROR_CODE,
          `The fees (gas ${plan.gasFee}, bridging ${plan.bridgingFee}) exceed the bridged amount ${plan.grossAmount}.`,
        )
        return save()
      }
      update(record, {
        target: {
          chainId: chain.chainId,
          token: getAddress(targetToken.address),
          symbol: targetToken.symbol,
          amount: plan.amount.toString(),
          grossAmount: plan.grossAmount.toString(),
          fees: { gas: plan.gasFee.toString(), bridging: plan.bridgingFee.toString() },
          gasSponsored: plan.gasSponsored,
          bridgingSponsored: plan.bridgingSponsored,
        },
      })
    }
    const target = record.target!
    const chain = chains.get(target.chainId)!
    const targetData = () => ({
      target: {
        chain: `eip155:${target.chainId}`,
        token: target.token,
        symbol: target.symbol,
        amount: target.amount,
        fees: target.fees,
        ...(record.bridgeTransactionHash ? { transactionHash: record.bridgeTransactionHash } : {}),
      },
    })
    emit(record, 'bridge-started', targetData())
    save()
    try {
      // A payout recorded before a restart: found on chain (or broadcast again), never sent twice.
      let receipt = record.bridgeTransactionHash ? await findPayout(chain, record) : undefined
      if (!receipt) {
        const payout =
          target.token === zeroAddress
            ? { to: record.account, data: '0x' as Hex, value: BigInt(target.amount) }
            : {
                to: target.token,
                data: encodeFunctionData({
                  abi: erc20Abi,
                  functionName: 'transfer',
                  args: [record.account, BigInt(target.amount)],
                }),
              }
        // Recorded, signed, before it is broadcast: a crash from here on leaves this transaction to find.
        const recordSigned = (signed: { hash: Hash; serialized: Hex }) => {
          update(record, { bridgeTransactionHash: signed.hash, bridgeRawTransaction: signed.serialized })
          save()
        }
        const hash = await senderOf(chain)(payout, { beforeBroadcast: recordSigned })
        // A sender that did not call beforeBroadcast: record the hash now, as before.
        if (record.bridgeTransactionHash !== hash) {
          delete record.bridgeRawTransaction
          update(record, { bridgeTransactionHash: hash })
          save()
        }
        receipt = await chain.publicClient.waitForTransactionReceipt({ hash })
      }
      if (receipt.status !== 'success')
        throw new Error(`Payout transaction ${receipt.transactionHash} reverted.`)
      update(record, { status: 'completed' })
      emit(record, 'bridge-complete', targetData())
    } catch (error) {
      fail(
        record,
        'failed',
        BRIDGE_ERROR_CODE,
        `The payout on chain ${target.chainId} failed: ${(error as Error).message.split('\n')[0]}`,
      )
    }
    save()
  }

  async function scanChain(chain: DepositChain): Promise<void> {
    const head = await chain.publicClient.getBlockNumber({ cacheTime: 0 })
    const stored = cursors.get(chain.chainId)
    if (stored === undefined) {
      // A chain seen for the first time is watched from its current head, not its history.
      cursors.set(chain.chainId, head)
      return save()
    }
    let cursor: bigint = stored
    while (cursor < head) {
      const from: bigint = cursor + 1n
      const to: bigint = head < from + maxBlockRange - 1n ? head : from + maxBlockRange - 1n
      const observed = await scanBlocks({
        client: chain.publicClient,
        chainId: chain.chainId,
        fromBlock: from,
        toBlock: to,
        accounts: config.accounts(),
        ignoreSenders: relayers(),
      })
      for (const deposit of observed) receive(deposit)
      cursor = to
      cursors.set(chain.chainId, to)
      // Deposits and events are stored before the cursor moves past them; deterministic ids make a replay harmless.
      save()
    }
  }

  let polling: Promise<void> | undefined
  let timer: NodeJS.Timeout | undefined
  let running = false

  /** One pass: scan every chain up to its head, then pay out every accepted deposit. */
  function pollOnce(): Promise<void> {
    polling ??= (async () => {
      try {
        for (const chain of chains.values()) await scanChain(chain)
        for (const record of [...deposits.values()].sort((a, b) => a.seq - b.seq))
          if (record.status === 'processing') await payOut(record)
      } finally {
        polling = undefined
      }
    })()
    return polling
  }

  const loop = async () => {
    if (!running) return
    try {
      await pollOnce()
    } catch (error) {
      parameters.onError?.(error)
    }
    if (running && pollIntervalMs !== null) timer = setTimeout(loop, pollIntervalMs)
  }

  const view = (record: DepositRecord) => {
    const { seq: _seq, tenantId: _tenantId, bridgeRawTransaction: _raw, ...rest } = record
    return structuredClone(rest)
  }

  return {
    /**
     * Starts the webhook outbox and the chain watcher. Chains without a stored cursor are
     * watched from their current head; deposits accepted but not paid out before a restart are paid now.
     */
    async start(): Promise<void> {
      if (running) return
      running = true
      outbox.start()
      for (const chain of chains.values())
        if (!cursors.has(chain.chainId))
          cursors.set(chain.chainId, await chain.publicClient.getBlockNumber({ cacheTime: 0 }))
      save()
      if (pollIntervalMs !== null) timer = setTimeout(loop, 0)
    },

    /** Stops polling and waits for the poll and deliveries in flight. */
    async stop(): Promise<void> {
      running = false
      if (timer) clearTimeout(timer)
      await polling?.catch(() => undefined)
      await outbox.stop()
      save()
    },

    pollOnce,

    /** Applies a partial configuration update for `tenant` (spec: POST /deposit-processor/setup). */
    async setup(tenant: string, params: DepositProcessorParams): Promise<{ message: string }> {
      // Fault deposits.setup-ignores-null: a null keeps the field instead of clearing it.
      const applied = faults?.has('deposits.setup-ignores-null')
        ? (Object.fromEntries(
            Object.entries(params).filter(([, value]) => value !== null),
          ) as DepositProcessorParams)
        : params
      config.apply(tenantIdOf(tenant), applied)
      save()
      return { message: 'Deposit processor configuration updated.' }
    },

    /** The tenant's configuration, defaults applied and the secret masked. */
    async getSetup(tenant: string) {
      return config.read(tenantIdOf(tenant))
    },

    /** The tenant's configuration as stored (secret in clear). */
    configuration(tenant: string): DepositProcessorConfiguration {
      return config.config(tenantIdOf(tenant))
    },

    /** Registers an account of `tenant`: its deposits on any chain are bridged to `targetChainId`. */
    async register(
      tenant: string,
      request: { account: string; targetChainId: number | string; targetToken?: string | undefined },
    ) {
      const registration = config.register(tenantIdOf(tenant), request, isoNow())
      save()
      return {
        message: 'Account registered.',
        account: registration.account,
        targetChainId: registration.targetChainId,
        targetToken: registration.targetToken,
      }
    },

    /** The tenant's deposits, newest first, filtered and paged (`cursor` is the previous page's `nextCursor`). */
    async listDeposits(tenant: string, query: ListDepositsQuery = {}) {
      const tenantId = tenantIdOf(tenant)
      const limit = query.limit ?? 20
      const before = query.cursor === undefined ? Number.POSITIVE_INFINITY : Number(query.cursor)
      const matching = [...deposits.values()]
        .filter(
          (d) =>
            d.tenantId === tenantId &&
            d.seq < before &&
            (query.account === undefined || d.account.toLowerCase() === query.account.toLowerCase()) &&
            (query.status === undefined || d.status === query.status) &&
            (query.txHash === undefined || d.transactionHash.toLowerCase() === query.txHash.toLowerCase()),
        )
        .sort((a, b) => b.seq - a.seq)
      const page = matching.slice(0, limit)
      const last = page.at(-1)
      return {
        deposits: page.map(view),
        nextCursor: matching.length > limit && last ? String(last.seq) : null,
      }
    },

    /** One deposit of the tenant, or undefined. */
    async getDeposit(tenant: string, id: string) {
      const record = deposits.get(id)
      return record && record.tenantId === tenantIdOf(tenant) ? view(record) : undefined
    },

    /** The tenant's webhook events with their delivery attempts, newest first. */
    async listWebhookEvents(
      tenant: string,
      query: { limit?: number | undefined; cursor?: string | undefined } = {},
    ) {
      return outbox.list(tenantIdOf(tenant), query)
    },

    /** Delivers one of the tenant's events again; undefined when it has no such event. */
    async resendWebhookEvent(tenant: string, eventId: string) {
      return outbox.resend(tenantIdOf(tenant), eventId)
    },

    /** Sends a `test` event to the tenant's webhook (facts §1: POST /deposit-processor/webhooks/test). */
    async sendTestEvent(tenant: string) {
      const tenantId = tenantIdOf(tenant)
      const event = outbox.enqueue({
        tenant: tenantId,
        type: 'test',
        test: true,
        data: { message: 'Test event from intent-devnet.' },
      })
      return event
    },

    /** The webhook outbox (benches and tests wait on its changes). */
    outbox,
  }
}
