import type { Hex } from 'viem'
import type { ChainGas } from '../../simulator/index'

/**
 * What a recording session holds: every HTTP exchange through the proxy, every JSON-RPC call that
 * sent a transaction through an RPC proxy, every webhook the target delivered to the stand-in
 * receiver, all in one order (`seq`), and what is known of the target (manifest, chain state).
 */

/** One HTTP exchange through the recording proxy. */
export type RecordedExchange = {
  kind: 'http'
  seq: number
  /** ms since the recording started. */
  at: number
  durationMs: number
  method: string
  /** Path with its query string. */
  path: string
  /** Request headers that matter (lower-case names); `x-api-key` is never kept. */
  headers: Record<string, string>
  /** How the request carried `x-api-key`: the recording's key, none, or another key. */
  apiKey: 'default' | 'omit' | 'wrong'
  body: string | undefined
  /** The target's answer, or the error that stopped the exchange. */
  response?: { status: number; headers: Record<string, string>; body: string } | undefined
  error?: string | undefined
}

/** A transaction a client sent through a per-chain RPC proxy. */
export type RecordedTransaction = {
  kind: 'chain'
  seq: number
  at: number
  chainId: number
  /** `eth_sendRawTransaction` (signed by the client) or `eth_sendTransaction` (an unlocked account). */
  method: 'eth_sendRawTransaction' | 'eth_sendTransaction'
  /** The raw transaction, or the `eth_sendTransaction` parameters. */
  params: unknown
  /** The hash the chain answered, if it accepted it. */
  hash?: Hex | undefined
  error?: string | undefined
}

/** A webhook the target delivered to the stand-in receiver (and that was forwarded to the client's). */
export type RecordedWebhook = {
  kind: 'webhook'
  seq: number
  at: number
  headers: Record<string, string>
  body: string
  /** Against the secret the client configured: `valid`, `invalid`, or `absent` (no header). */
  signature: 'valid' | 'invalid' | 'absent'
  /** What the client's own receiver answered (or undefined when the client gave no URL / it failed). */
  forwardedStatus?: number | undefined
}

/** One recorded event, in the order the recorder saw it. */
export type RecordedEvent = RecordedExchange | RecordedTransaction | RecordedWebhook

/**
 * What a replay restores, as it was when the recording started (the target is an intent-devnet):
 * the chains (state and gas), the clock, the price table, the service's configuration and the
 * recorded key's deposit-processor configuration.
 */
export type RecordedChainState = {
  offsetSeconds: number
  /**
   * The devnet's time when the recording began, unix seconds (the target's own clock: its
   * manifest's `clock.now` plus how long the capture took). A replay starts its clock at this
   * instant, however long after the recording it runs. Absent in journals of older recorders.
   */
  now?: number | undefined
  /** Each chain's `anvil_dumpState` and its gas (head block, next base fee); `gas` is absent in older journals. */
  chains: { chainId: number; state: Hex; gas?: ChainGas | undefined }[]
  /** USD prices by token symbol (`POST /_devnet/prices` answers them). */
  prices?: Record<string, number> | undefined
  /**
   * The service's configuration (the manifest's `service`): quote lifetime, swap fee, the gas
   * price quotes charge per chain (gwei by chain id, `--gas-price`) and whether it refuses
   * requests without `x-api-version` (`--strict-version`).
   */
  service?:
    | {
        quoteTtlSeconds: number
        swapFeeBps?: number | undefined
        gasPrices?: Record<string, string> | undefined
        strictVersion?: boolean | undefined
        /** The devnet's mnemonic and funded-account count (`--mnemonic`, `--accounts`). */
        mnemonic?: string | undefined
        accountCount?: number | undefined
      }
    | undefined
  /** `GET /deposit-processor/setup` of the recorded key (its secret masked), when it had one. */
  depositSetup?: Record<string, unknown> | undefined
}

/**
 * Everything a session recorded; {@link toScenario} turns it into a scenario. The events are not
 * held in memory: they are in the journal file (`journalEvents(recording.journal)` reads them in
 * order), so a recording of any length costs the recorder next to no memory.
 */
export type Recording = {
  target: string
  startedAt: string
  /** The key the client used (to tell `default` from `wrong`); never written. Empty when read back from a journal. */
  apiKey: string
  /** The journal file that holds the events (see `journal.ts`). */
  journal: string
  /** How many events of each kind the journal holds. */
  counts: { http: number; chain: number; webhook: number }
  /** `GET /_devnet/manifest` of the target at the start, when it has the control API. */
  manifest?: unknown
  /** Private keys of devnet accounts (the manifest's, or the `--chains` file's). */
  accountKeys: Hex[]
  /** Chain state and clock at the start, or why they could not be captured. */
  chainState?: RecordedChainState | undefined
  chainStateProblem?: string | undefined
  /** The recorder's webhook URL prefix, which requests carry in place of the client's. */
  webhookUrls: string[]
  /** Webhook secrets the client configured (replaced by the runner's inbox secret at replay). */
  webhookSecrets: string[]
  /** Faults enabled on the target when the recording started (the replay does not enable them). */
  faultsAtStart: string[]
}
