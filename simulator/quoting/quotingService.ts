import type { Portfolio, RouteRequest } from '../../spec'
import type { QuotedRoute } from './buildQuotedRoute'
import type { QuoteResult } from './quote'
import type { PortfolioFilter } from './types'

/** A quoted route kept in the quote store under `intentId` until `expiresAt` (devnet clock). */
export type KeptRoute = { route: QuotedRoute; intentId: string; expiresAt: number }

/** Quotes routes (POST /intents/route, POST /quotes) and owns the quote store; version neutral. */
export interface QuotingService {
  /** The best route (a plan, or the best effort when none funds every request), its intentOp signed now (alps). */
  quoteBest(request: RouteRequest): Promise<QuoteResult>
  /**
   * Every route that works, cheapest first, each kept in the quote store (the full intents stay
   * on the server: blanc); none throws `Quoting.InsufficientLiquidityError`.
   */
  quoteEvery(request: RouteRequest): Promise<{ routes: KeptRoute[] }>
  /** Empties the quote store, as a restart would (`POST /_devnet/quotes/reset`). */
  resetQuotes(): Promise<void>
  /** What `account` holds, locked and unlocked, per token and chain (`GET /accounts/{address}/portfolio`). */
  portfolio(account: string, filter?: PortfolioFilter): Promise<Portfolio>
}
