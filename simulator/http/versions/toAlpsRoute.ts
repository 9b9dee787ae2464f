import type { AlpsRouteResponse } from '../../../spec'
import type { QuotedRoute } from '../../quoting/buildQuotedRoute'
import type { QuoteResult } from '../../quoting/quote'
import { toTokenRequirement } from '../../quoting/toTokenRequirement'
import { buildIntentCost } from './buildIntentCost'

/**
 * The alps answer of a quote of the `best` route: its server-signed intentOp and its
 * `intentCost`; when nothing funds every request, the best effort with `hasFulfilledAll: false`
 * and, for an externally owned account, `tokenRequirements` per requested token.
 */
export function toAlpsRoute(result: QuoteResult): AlpsRouteResponse {
  // A `best` quote has exactly one route: a plan, or the best effort when none works.
  const route = result.routes[0] as QuotedRoute
  const { intentOp } = route.quoted
  // The prices the route was quoted (and signed) with.
  const { tokenPrices } = intentOp.signedMetadata
  const response: AlpsRouteResponse = {
    intentOp,
    intentCost: buildIntentCost({
      plan: route.plan,
      requests: result.requests,
      fees: route.fees,
      gas: route.gas,
      ethPrice: result.ethPrice,
      price: (symbol) => tokenPrices[symbol] ?? 0,
      sponsorFee: route.sponsorFee,
      missing: result.missing,
    }),
  }
  // Spec (Route response, version alps): tokenRequirements is "for externally owned accounts only".
  if (result.missing && !route.quoted.account.isSmartAccount)
    response.tokenRequirements = Object.fromEntries(
      result.missing.map((m) => [m.token, toTokenRequirement(m)]),
    )
  return response
}
