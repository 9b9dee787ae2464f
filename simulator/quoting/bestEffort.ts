import type { SwapSettings } from './swaps'
import { swappedFor } from './swaps'
import { createRemaining, leftFor, smaller, takeFrom } from './takeSources'
import type {
  AccessList,
  Allocation,
  ChainHoldings,
  FundingMethod,
  FundingPlan,
  FundingSource,
  PlanRequest,
} from './types'

/** One request's row of a best effort: what it needs (with the swap fee) against what is left for it. */
export type EffortRow = { required: bigint; available: bigint }

/** Parameters of {@link bestEffort}. */
export type BestEffortParameters = {
  holdings: readonly ChainHoldings[]
  requests: readonly PlanRequest[]
  access?: AccessList | undefined
  /** Per request: amount + the user's fees, without the swap fee. */
  needs: readonly bigint[]
  swap: SwapSettings
}

/** What {@link bestEffort} found: the method, a row per request, and the plan taking what there is. */
export type BestEffort = { method: FundingMethod; rows: EffortRow[]; plan: FundingPlan }

/**
 * The most the account can do when no plan works, by the funding method that falls shortest of
 * nothing (least missing in all, then most available): requests in order, each taking what it
 * needs (its token, ETH/WETH 1:1, then swaps) from what the earlier ones left, so that two
 * requests never count the same source twice.
 */
export function bestEffort(parameters: BestEffortParameters): BestEffort {
  const efforts = (['COMPACT', 'PERMIT2'] as const).map((method) => effortOf(parameters, method))
  return efforts.reduce((a, b) => {
    const [ma, mb] = [total(a.rows, missingOf), total(b.rows, missingOf)]
    if (mb !== ma) return mb < ma ? b : a
    return total(b.rows, availableOf) > total(a.rows, availableOf) ? b : a
  })
}

const total = (rows: readonly EffortRow[], pick: (row: EffortRow) => bigint) =>
  rows.reduce((s, row) => s + pick(row), 0n)
const missingOf = (row: EffortRow) => (row.required > row.available ? row.required - row.available : 0n)
const availableOf = (row: EffortRow) => row.available

/**
 * The best effort of one method. Per request: the value required (amount + fees, plus the swap
 * fee on what must be swapped), the value still available to it, and the sources it would take
 * (all it can, when short).
 */
function effortOf(parameters: BestEffortParameters, method: FundingMethod): BestEffort {
  const { holdings, requests, access, needs, swap } = parameters
  const order = holdings.map((h) => h.chainId)
  const remaining = createRemaining(method, access)
  const used: number[] = []
  const rows: EffortRow[] = []
  const allocations: Allocation[] = []
  for (const [r, request] of requests.entries()) {
    const need = needs[r] ?? request.amount
    const { direct, swaps, to, D, W } = leftFor(holdings, order, request, swap, remaining)
    const required = need <= D ? need : D + swappedFor(need - D, swap.userBps)
    rows.push({ required, available: D + W })
    // Take it (or all there is), so that the next request sees only what is left.
    const d = smaller(need, D)
    const s = smaller(required - d, W)
    const sources: FundingSource[] = []
    const context = { remaining, swap, to, request, sources, used }
    takeFrom(direct, d, context)
    takeFrom(swaps, s, context)
    allocations.push({ need: d + s, swapped: s, sources })
  }
  return { method, rows, plan: { method, chainIds: order.filter((c) => used.includes(c)), allocations } }
}
