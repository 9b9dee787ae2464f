import { bestEffort, type EffortRow } from './bestEffort'
import { NO_SWAPS, type SwapSettings } from './swaps'
import type { AccessList, ChainHoldings, NeedFor, PlanRequest, Shortfall } from './types'

/** Parameters of {@link shortfall}. */
export type ShortfallParameters = {
  holdings: readonly ChainHoldings[]
  requests: readonly PlanRequest[]
  access?: AccessList | undefined
  needFor: NeedFor
  swap?: SwapSettings | undefined
}

/**
 * What is missing when no plan works: per request, by the method that falls shortest, the value
 * the account can still put towards it after the earlier requests took theirs (its token, ETH/WETH
 * 1:1, and other tokens converted at the price table) versus what it needs (amount + fees, plus
 * the swap fee on what must be swapped).
 */
export function shortfall(parameters: ShortfallParameters): Shortfall[] {
  const { holdings, requests, access, needFor } = parameters
  const needs = needFor(holdings.map((h) => h.chainId))
  const { rows } = bestEffort({ holdings, requests, access, needs, swap: parameters.swap ?? NO_SWAPS })
  return requests.map((request, r) => {
    const { required, available } = rows[r] as EffortRow
    return {
      token: request.token.address,
      symbol: request.symbol,
      required,
      available,
      missing: required > available ? required - available : 0n,
    }
  })
}
