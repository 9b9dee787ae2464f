import { bps } from './fees'
import { type SwapSettings, swappedFor } from './swaps'
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

/** Which sources a plan takes first: the requested token (then swaps), or other tokens (then the requested one). */
export type Preference = 'same' | 'swap'

/** Parameters of {@link allocate}. */
export type AllocateParameters = {
  holdings: readonly ChainHoldings[]
  /** The origin chains to take from, in order. */
  order: number[]
  requests: readonly PlanRequest[]
  /** Per request: amount + the user's fees, without the swap fee (added here). */
  needs: readonly bigint[]
  method: FundingMethod
  access: AccessList | undefined
  swap: SwapSettings
  prefer: Preference
}

/** One allocation of every request over `order`'s chains, or undefined when they cannot fund it. */
export function allocate(parameters: AllocateParameters): FundingPlan | undefined {
  const { holdings, order, requests, needs, method, access, swap, prefer } = parameters
  const allocations: Allocation[] = []
  const used: number[] = []
  const remaining = createRemaining(method, access)
  for (const [r, request] of requests.entries()) {
    const need = needs[r] ?? 0n
    const { direct, swaps, to, D, W } = leftFor(holdings, order, request, swap, remaining)
    let d: bigint
    let s: bigint
    if (prefer === 'swap' && W > 0n) {
      s = swappedFor(need, swap.userBps)
      d = 0n
      if (s > W) {
        s = W
        // Every swap source, and its fee, then the requested token for the rest.
        d = need + bps(W, swap.userBps) - W
      }
    } else {
      d = smaller(need, D)
      s = swappedFor(need - d, swap.userBps)
    }
    if (d > D || s > W) return undefined
    const sources: FundingSource[] = []
    const context = { remaining, swap, to, request, sources, used }
    if (!takeFrom(direct, d, context) || !takeFrom(swaps, s, context)) return undefined
    allocations.push({ need: d + s, swapped: s, sources })
  }
  return { method, chainIds: order.filter((c) => used.includes(c)), allocations }
}

const sameNeeds = (a: readonly bigint[], b: readonly bigint[]) =>
  a.length === b.length && a.every((x, i) => x === b[i])

/**
 * Allocates over `order` until the plan's chains and needs are stable (fees depend on the chains
 * used and on the lock ids per chain). Undefined when it cannot fund or does not settle.
 */
export function settlePlan(
  parameters: Omit<AllocateParameters, 'needs'> & { needFor: NeedFor },
): FundingPlan | undefined {
  const { needFor } = parameters
  let order = parameters.order
  let needs = needFor(order)
  for (let i = 0; i < 12; i++) {
    const plan = allocate({ ...parameters, order, needs })
    if (!plan) return undefined
    const next = needFor(plan.chainIds, plan)
    // The sources cover exactly `need` (base need + swap fee): stable when neither chains nor needs move.
    if (plan.chainIds.length === order.length && sameNeeds(next, needs)) return plan
    order = plan.chainIds
    needs = next
  }
  return undefined
}
