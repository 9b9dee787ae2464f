import type {
  ExplorerChains,
  ExplorerIntent,
  ExplorerIntentList,
  ExplorerIntentsQuery,
  ExplorerPageQuery,
  ExplorerQuoteList,
  ExplorerTransaction,
} from './schemas'

/**
 * The explorer's read model (`/_devnet/explorer/…`): the intent store, the quote store and the
 * chains, as one page shows them. Read only: it never changes what it reads.
 */
export interface ExplorerService {
  /** Intents, newest first, paged (`cursor`: the previous page's `nextCursor`). */
  /** A page of intents, newest first; with `search`, the intent whose intentId or id it is (or none). */
  listIntents(query: ExplorerIntentsQuery): Promise<ExplorerIntentList>
  /** One intent (by id, or by its blanc intentId) with its timeline and gas used; undefined → 404. */
  getIntent(id: string): Promise<ExplorerIntent | undefined>
  /** The blanc quote store, newest first, paged. */
  listQuotes(query: ExplorerPageQuery): Promise<ExplorerQuoteList>
  /** Each chain's head block and time, and the devnet clock. */
  chains(): Promise<ExplorerChains>
  /** A transaction with its receipt, its call decoded by our contracts' ABIs; undefined → 404. */
  getTransaction(chainId: number, hash: `0x${string}`): Promise<ExplorerTransaction | undefined>
}
