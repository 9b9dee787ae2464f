import type { Address, Hex } from 'viem'
import type { DevnetChain } from '../devnet/chain'
import type { ChainSender } from '../devnet/chainSender'
import type { DevKeys } from '../devnet/keys'
import type { IntentStore } from '../intents/intentStore'
import type { SignedIntent } from '../intents/types'

/** What the settlement needs of the devnet: its chains, the relayer and allocator keys, the clock. */
export type SettlementDevnet = {
  chain(chainId: number): DevnetChain
  readonly chains: readonly DevnetChain[]
  keys: Pick<DevKeys, 'relayer' | 'allocator'>
  /** Devnet clock, unix seconds (advancing it counts for fill deadlines). */
  now(): number
  /** Whether the chains may hold less than the intent store (see Devnet.chainsMayLag); absent: assume so. */
  chainsMayLag?(): boolean
}

/** The intent store's payload: what the settlement needs to settle an intent. */
export type SettlementPayload = SignedIntent

/**
 * What every settlement action works with (the `client` of a viem action): the devnet, the
 * intent store, the relayer's senders, and the state the relayer shares between its actions.
 */
export type SettlementContext = {
  devnet: SettlementDevnet
  store: IntentStore<SettlementPayload>
  /** The relayer's senders, one per chain (one nonce queue each). */
  senders: ReadonlyMap<number, ChainSender>
  log: (line: string) => void
  /** Whether the relayer claims on the origins once it filled (always, unless the composition root decorates it). */
  claimAfterFill: () => boolean
  /** Intents whose fill was handed to the sender: the expiry check leaves them alone. */
  fillCommitted: Set<string>
  /** The Compact's domain separator of each chain, read once. */
  domainSeparators: Map<number, Promise<Hex>>
}

/** The steps a failure is recorded under (`failureReason` = `step: reason`). */
export type SettlementStep = 'fill' | 'claim' | 'resume'

/** One relayer call, ready to send (`to`, `data`, `value`) or to dry-run (`simulate` decodes a revert). */
export type PreparedCall = {
  chainId: number
  to: Address
  data: Hex
  value: bigint
  /** eth_call of the call as the relayer; a revert throws, decodable with describeRevert. */
  simulate(): Promise<void>
}
