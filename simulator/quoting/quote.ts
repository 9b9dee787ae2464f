import type { PrivateKeyAccount } from 'viem/accounts'
import type { TokenInfo } from '../../contracts/addresses'
import type { RouteRequest } from '../../spec'
import type { PriceTable } from '../prices/prices'
import type { EmissaryConfigs } from '../signing/emissary'
import type { Clock } from '../util/clock'
import { buildQuotedRoute, type QuotedRoute, type SignMoment } from './buildQuotedRoute'
import { type CheckRouteRequestErrorType, checkRouteRequest } from './checkRouteRequest'
import { choosePlans, type RouteSelection } from './choosePlans'
import type { BalanceReader } from './createBalanceReader'
import { createRouteCosts } from './createRouteCosts'
import type { MissingPriceError } from './errors'
import type { GasPriceTable } from './gasPrices'
import { type RoundTripScope, readBalances } from './readBalances'
import { requirePrice } from './requirePrice'
import type { ChainHoldings, PlanRequest, Shortfall } from './types'

/** What every quote of a service uses: its balance reader, tokens, prices, clock and keys. */
export type QuoteContext = {
  balances: BalanceReader
  /** Tokens per running chain (native ETH included): what requests and access lists may name. */
  tokens: Readonly<Record<number, readonly TokenInfo[]>>
  prices: Pick<PriceTable, 'get'>
  clock: Clock
  /** Signs `serverSignature`. */
  server: PrivateKeyAccount
  /** Quote lifetime, seconds (the quote store's): the fill deadline follows from it. */
  ttlSeconds: number
  /** Swap fee, basis points of the swapped value. */
  swapFeeBps: bigint
  /** Issues `account.emissaryConfig`; undefined: quotes omit it. */
  emissaryConfigs: EmissaryConfigs | undefined
  /** How the quote sees the holdings read (default: as read); the fault `quotes.balance-from-allowance` changes it. */
  seeHoldings?: ((holdings: ChainHoldings[]) => ChainHoldings[]) | undefined
  /** The gas prices quotes charge (default: the realistic defaults, simulator/quoting/gasPrices.ts). */
  gas?: GasPriceTable | undefined
}

/** Parameters of {@link quote}. */
export type QuoteParameters = {
  request: RouteRequest
  /** Every route that works (blanc), or the one alps answers ({@link RouteSelection}). */
  routes: RouteSelection
  /** Sign the IntentOps now (they go out in the answer) or at submission (they stay on the server). */
  sign: SignMoment
  /** Counts the quote's RPC round trips. */
  scope?: RoundTripScope | undefined
}

/** The routes of a quote, cheapest first for the user, and what is missing when no plan works. */
export type QuoteResult = {
  /** The token requests, resolved (request order). */
  requests: readonly PlanRequest[]
  /** USD price of ETH the quote was priced with. */
  ethPrice: number
  /** Sorted by the user's fee in USD, then fewer origin chains. */
  routes: QuotedRoute[]
  /** Per request, when no plan funds them all (`best`: the one route is then a best effort). */
  missing?: Shortfall[] | undefined
}

/** Errors {@link quote} throws on purpose. */
export type QuoteErrorType = CheckRouteRequestErrorType | MissingPriceError

/**
 * Quotes a route request, whatever the API version: checks it, reads the account's balances
 * (one Multicall3 per chain), plans funding, prices each plan and builds its IntentOp
 * (docs/quoting.md, "Pipeline").
 *
 * @example
 * const { routes } = await quote(context, { request, routes: 'every', sign: 'onSubmit' })
 */
export async function quote(context: QuoteContext, parameters: QuoteParameters): Promise<QuoteResult> {
  const { balances, tokens, prices, swapFeeBps } = context
  const checked = checkRouteRequest({
    request: parameters.request,
    chainIds: balances.chains.map((c) => c.chainId),
    tokens,
  })
  const read = await readBalances(balances.chains, checked.account.address, parameters.scope)
  const holdings = context.seeHoldings ? context.seeHoldings(read) : read
  const costs = createRouteCosts({ checked, holdings, prices, swapFeeBps, gas: context.gas })
  const swap = {
    userBps: checked.sponsorship.swap ? 0n : swapFeeBps,
    price: (symbol: string) => prices.get(symbol),
  }
  const { plans, missing } = choosePlans({
    checked,
    holdings,
    needFor: costs.needFor,
    swap,
    routes: parameters.routes,
  })
  const result = { requests: checked.requests, ethPrice: costs.ethPrice, ...(missing ? { missing } : {}) }
  if (!plans.length) return { ...result, routes: [] }
  const now = context.clock.now()
  const price = (symbol: string) => requirePrice(prices, symbol)
  const routes = await Promise.all(
    plans.map((plan) =>
      buildQuotedRoute({
        checked,
        plan,
        costs,
        price,
        server: context.server,
        emissaryConfigs: context.emissaryConfigs,
        now,
        ttlSeconds: context.ttlSeconds,
        sign: parameters.sign,
      }),
    ),
  )
  routes.sort((a, b) =>
    a.userFeeMicroUsd !== b.userFeeMicroUsd
      ? a.userFeeMicroUsd < b.userFeeMicroUsd
        ? -1
        : 1
      : a.quoted.originChainIds.length - b.quoted.originChainIds.length,
  )
  return { ...result, routes }
}
