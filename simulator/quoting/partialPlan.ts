import { settleEffort } from './bestEffort'
import { NO_SWAPS, type SwapSettings } from './swaps'
import type { AccessList, ChainHoldings, FundingPlan, NeedFor, PlanRequest } from './types'

/** Parameters of {@link partialPlan}. */
export type PartialPlanParameters = {
  holdings: readonly ChainHoldings[]
  requests: readonly PlanRequest[]
  destinationChainId: number
  access?: AccessList | undefined
  needFor: NeedFor
  swap?: SwapSettings | undefined
}

/**
 * When no plan works (alps answers `hasFulfilledAll: false`): what the account can give towards
 * each request, by the same method and in the same way as `shortfall` counts it (its token,
 * then swaps; the earlier requests first). If it can give nothing, one empty source on the
 * destination chain, so the intent keeps its shape.
 */
export function partialPlan(parameters: PartialPlanParameters): FundingPlan {
  const { holdings, requests, destinationChainId } = parameters
  const { method, plan } = settleEffort({ ...parameters, swap: parameters.swap ?? NO_SWAPS })
  if (plan.chainIds.length > 0) return plan
  const dest = holdings.find((h) => h.chainId === destinationChainId)
  const first = requests[0]
  const holding = first && dest?.tokens.find((t) => t.token.symbol === first.symbol)
  if (!holding) return plan
  return {
    method,
    chainIds: [destinationChainId],
    allocations: [
      {
        need: 0n,
        swapped: 0n,
        sources: [
          {
            chainId: destinationChainId,
            token: holding.token.address,
            symbol: holding.token.symbol,
            decimals: holding.token.decimals,
            lockId: holding.lockId,
            amount: 0n,
            forToken: first.token.address,
            value: 0n,
            kind: 'SAME',
          },
        ],
      },
      ...requests.slice(1).map(() => ({ need: 0n, swapped: 0n, sources: [] })),
    ],
  }
}
