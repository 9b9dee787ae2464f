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
  NeedFor,
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

/** Parameters of {@link settleEffort}: the needs come from the chains the effort takes. */
export type SettleEffortParameters = Omit<BestEffortParameters, 'needs'> & {
  needFor: NeedFor
  /** The chain whose fees count when the account can give nothing from anywhere. */
  destinationChainId: number
}

/**
 * The best effort with its needs (amount + fees) counted for the chains it takes, as a plan
 * that works counts them, not for every chain the account holds something on: gas on a chain
 * it takes nothing from is no part of what it needs (an account covering one request from one
 * chain is not reported short of it by the gas of the others). Starting from every chain, each
 * round counts the needs for the last effort's chains and lock ids, until they stay the same
 * (12 rounds at most, as planFunding settles a plan). An account that can give nothing is
 * counted as funding from the destination chain alone.
 */
export function settleEffort(parameters: SettleEffortParameters): BestEffort {
  const { needFor, destinationChainId } = parameters
  const needsOf = (effort: BestEffort) =>
    effort.plan.chainIds.length ? needFor(effort.plan.chainIds, effort.plan) : needFor([destinationChainId])
  let needs = needFor(parameters.holdings.map((h) => h.chainId))
  let effort = bestEffort({ ...parameters, needs })
  for (let round = 0; round < 12; round++) {
    const next = needsOf(effort)
    if (next.length === needs.length && next.every((need, i) => need === needs[i])) break
    needs = next
    effort = bestEffort({ ...parameters, needs })
  }
  return effort
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
