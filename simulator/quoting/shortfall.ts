import { type EffortRow, settleEffort } from './bestEffort'
import { NO_SWAPS, type SwapSettings } from './swaps'
import type { AccessList, ChainHoldings, NeedFor, PlanRequest, Shortfall } from './types'

/** Parameters of {@link shortfall}. */
export type ShortfallParameters = {
  holdings: readonly ChainHoldings[]
  requests: readonly PlanRequest[]
  access?: AccessList | undefined
  needFor: NeedFor
  swap?: SwapSettings | undefined
  /** The chain whose fees count when the account can give nothing ({@link settleEffort}). */
  destinationChainId: number
}

/**
 * What is missing when no plan works: per request, by the method that falls shortest, the value
 * the account can still put towards it after the earlier requests took theirs (its token, ETH/WETH
 * 1:1, and other tokens converted at the price table) versus what it needs (amount + fees on the
 * chains it would take from, plus the swap fee on what must be swapped).
 */
export function shortfall(parameters: ShortfallParameters): Shortfall[] {
  const { requests } = parameters
  const { rows } = settleEffort({ ...parameters, swap: parameters.swap ?? NO_SWAPS })
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
