import type { CheckedRouteRequest } from './checkRouteRequest'
import { partialPlan } from './partialPlan'
import { planFunding } from './planFunding'
import { shortfall } from './shortfall'
import type { SwapSettings } from './swaps'
import type { ChainHoldings, FundingMethod, FundingPlan, NeedFor, Shortfall } from './types'

/**
 * Which routes a quote answers:
 * - `every`: every plan that works, same-token and swap plans of both funding methods (blanc
 *   lists them); none when nothing works.
 * - `best`: the one plan alps answers: without swaps when one exists, PERMIT2 first; swap plans
 *   are looked for only when the requested tokens cannot fund the request; when nothing works, a
 *   best effort over what the account can give (not fillable).
 */
export type RouteSelection = 'every' | 'best'

/** Parameters of {@link choosePlans}. */
export type ChoosePlansParameters = {
  checked: CheckedRouteRequest
  holdings: readonly ChainHoldings[]
  needFor: NeedFor
  swap: SwapSettings
  routes: RouteSelection
}

const METHODS: readonly FundingMethod[] = ['PERMIT2', 'COMPACT']

/** The plans a quote builds routes for ({@link RouteSelection}), and what is missing when none works. */
export function choosePlans(parameters: ChoosePlansParameters): {
  plans: FundingPlan[]
  missing?: Shortfall[] | undefined
} {
  const { checked, holdings, needFor, swap, routes } = parameters
  const { requests, destinationChainId } = checked
  const access = checked.request.accountAccessList
  const planAll = (withSwaps: boolean) =>
    METHODS.flatMap((method) =>
      planFunding({
        holdings,
        requests,
        destinationChainId,
        method,
        access,
        needFor,
        ...(withSwaps ? { swap } : {}),
      }),
    )
  let plans = planAll(routes === 'every')
  if (routes === 'best' && !plans.length) plans = planAll(true)
  if (plans.length) return { plans: routes === 'every' ? plans : [pickBest(plans)] }
  const missing = shortfall({ holdings, requests, access, needFor, swap, destinationChainId })
  if (routes === 'every') return { plans: [], missing }
  return { plans: [partialPlan({ holdings, requests, destinationChainId, access, needFor, swap })], missing }
}

/** Prefers plans without swaps, then PERMIT2 (what the SDK 1.x signs verifiably), then plan order. */
function pickBest(plans: FundingPlan[]): FundingPlan {
  const direct = plans.filter((p) => !p.allocations.some((a) => a.swapped > 0n))
  const pool = direct.length ? direct : plans
  return (pool.find((p) => p.method === 'PERMIT2') ?? pool[0]) as FundingPlan
}
