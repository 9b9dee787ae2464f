import type { Address, Chain, Hash, Hex, LocalAccount, PublicClient, Transport, WalletClient } from 'viem'
import type { TokenInfo } from '../../contracts/addresses'
import type { SendOptions } from '../devnet/chainSender'
import type { EventBus } from '../events/eventBus'
import type { PriceTable } from '../prices/prices'
import type { DepositStore } from './createDepositStore'
import type { EvaluateDepositParameters, EvaluateDepositReturnType } from './rules'
import type { TokenDirectory } from './tokenDirectory'
import type { WebhookOutbox } from './webhookOutbox'

/** Sends one relayer transaction through the relayer's one nonce queue of a chain (a ChainSender's `send`). */
export type SendRelayerTransaction = (
  tx: { to: Address; data: Hex; value?: bigint | undefined },
  options?: SendOptions,
) => Promise<Hash>

/** What the processor needs of one chain: read access, the relayer that pays out, and its tokens. */
export type DepositChain = {
  chainId: number
  publicClient: PublicClient
  /** The relayer (a local key), funded with ether and every token: it sends the bridged tokens. */
  relayer: WalletClient<Transport, Chain | undefined, LocalAccount>
  /** The ERC-20 tokens the devnet knows on this chain (native ether is implied). */
  tokens: readonly TokenInfo[]
  /**
   * Sends a relayer transaction through the sender the settlement shares, so the two never race
   * for the relayer's nonces. `options.beforeBroadcast` must be called before broadcasting.
   */
  send: SendRelayerTransaction
  /**
   * Subscribes to the chain's new blocks (the node's `newHeads`), if it can: each block mined wakes
   * the watcher at once instead of at its next poll. Rejects when the node cannot (the watcher
   * polls then); `onDown` says a live subscription ended. Absent: the watcher only polls.
   */
  watchHeads?: ((handlers: WatchHeadsHandlers) => Promise<{ close(): void }>) | undefined
}

/** What {@link DepositChain.watchHeads} reports: a block's number as it is mined, and the end of the subscription. */
export type WatchHeadsHandlers = { onHead(number: bigint): void; onDown(error: Error): void }

/** The deposit rules (rules.ts `evaluateDeposit`, or a decorator the composition root puts around it). */
export type EvaluateDeposit = (parameters: EvaluateDepositParameters) => EvaluateDepositReturnType

/** What every action of the processor works with: the chains, the store (and its clock), the outbox, the rules and the devnet's prices. */
export type DepositContext = {
  chains: ReadonlyMap<number, DepositChain>
  tokens: TokenDirectory
  store: DepositStore
  outbox: WebhookOutbox
  prices: PriceTable
  /** The deposit rules a deposit is judged by. */
  evaluate: EvaluateDeposit
  /** Each step of a deposit is published here (the explorer's live feed). */
  events: Pick<EventBus, 'publish'>
}
