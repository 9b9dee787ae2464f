import type { Address, Chain, Hash, Hex, LocalAccount, PublicClient, Transport, WalletClient } from 'viem'
import type { TokenInfo } from '../../contracts/addresses'
import type {
  Deposit,
  DepositList,
  DepositListQuery,
  DepositProcessorConfig,
  DepositProcessorRegisterRequest,
  DepositProcessorRegisterResponse,
  DepositProcessorSetupRequest,
  DepositProcessorSetupResponse,
  WebhookEvent,
  WebhookEventList,
  WebhookEventListQuery,
} from '../../spec'
import type { SendOptions } from '../devnet/chainSender'
import type { EventBus } from '../events/eventBus'
import type { Faults } from '../faults/faults'
import type { PriceTable } from '../prices/prices'
import type { DepositStore } from './createDepositStore'
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
}

/** What every action of the processor works with: the chains, the store (and its clock), the outbox, the devnet's prices and faults. */
export type DepositContext = {
  chains: ReadonlyMap<number, DepositChain>
  tokens: TokenDirectory
  store: DepositStore
  outbox: WebhookOutbox
  prices: PriceTable
  faults: Faults
  /** Each step of a deposit is published here (the explorer's live feed). */
  events: Pick<EventBus, 'publish'>
}

/**
 * The deposit processor's configuration, deposits and webhook outbox, for one tenant (API key).
 * Setup and register throw `DepositProcessor.InvalidConfigurationError` or
 * `DepositProcessor.AccountTakenError` for what the schemas accept but the devnet cannot honour.
 */
export interface DepositProcessorService {
  setup(params: DepositProcessorSetupRequest['params']): Promise<DepositProcessorSetupResponse>
  getSetup(): Promise<DepositProcessorConfig>
  register(request: DepositProcessorRegisterRequest): Promise<DepositProcessorRegisterResponse>
  listDeposits(query: DepositListQuery): Promise<DepositList>
  /** undefined → 404. */
  getDeposit(id: string): Promise<Deposit | undefined>
  listWebhookEvents(query: WebhookEventListQuery): Promise<WebhookEventList>
  /** undefined → 404. */
  resendWebhookEvent(id: string): Promise<WebhookEvent | undefined>
  /** Queues every failed event again (at most `limit`), each with a fresh retry window; answers their ids. */
  resendFailedWebhookEvents?(limit?: number): Promise<string[]>
  /** Queues a test event (`test: true`) for the configured webhook (facts §1). */
  sendTestEvent(): Promise<WebhookEvent>
}
