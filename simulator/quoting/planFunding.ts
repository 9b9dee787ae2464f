import { type Preference, settlePlan } from './allocate'
import { findCandidates } from './findCandidates'
import { spendable } from './spendable'
import { NO_SWAPS, type SwapSettings, valueCovered } from './swaps'
import type { AccessList, ChainHoldings, FundingMethod, FundingPlan, NeedFor, PlanRequest } from './types'

// The plan types live in types.ts; simulator/eip712/eip712.test.ts imports two of them from here.
export type { FundingPlan, PlanRequest } from './types'

/** Parameters of {@link planFunding}. */
export type PlanFundingParameters = {
  holdings: readonly ChainHoldings[]
  requests: readonly PlanRequest[]
  destinationChainId: number
  method: FundingMethod
  access?: AccessList | undefined
  needFor: NeedFor
  /** Swap pricing; omitted: requests are funded by the same token (and ETH/WETH) only. */
  swap?: SwapSettings | undefined
}

const planKey = (plan: FundingPlan) =>
  JSON.stringify(plan.allocations.map((a) => a.sources.map((s) => [s.chainId, s.token, s.amount.toString()])))

/**
 * Every plan that works for one funding method (pure), in two rounds. First without swaps (the
 * requested token, and ETH/WETH 1:1): a plan per origin chain able to fund alone, or, if none, a
 * multi-chain split (destination chain first, then the chains holding the most). Then, when
 * `swap` is given, with swaps: per origin chain a plan taking the requested token first (swapping
 * the account's other tokens for what is missing) and one swapping first; if no single chain
 * works, a split, same token first, then swaps. Duplicates are dropped.
 */
export function planFunding(parameters: PlanFundingParameters): FundingPlan[] {
  const { holdings, requests, destinationChainId, method, access, needFor } = parameters
  const swap = parameters.swap ?? NO_SWAPS
  const plans: FundingPlan[] = []
  // Nothing this method can move (say, no Permit2 allowance at all): no plan, nothing to try.
  if (!holdings.some((chain) => chain.tokens.some((h) => spendable(chain.chainId, h, method, access) > 0n)))
    return plans
  const keys = new Set<string>()
  const add = (plan: FundingPlan | undefined) => {
    if (!plan) return
    const key = planKey(plan)
    if (keys.has(key)) return
    keys.add(key)
    plans.push(plan)
  }
  // Chains that fund every request alone with the requested tokens: there, a swap round's "same
  // first" plan is that very plan (nothing left to swap), so it is not computed again.
  const fundedAlone = new Set<number>()
  /** Single-chain plans with these swap settings; if none works, one multi-chain split. */
  const round = (settings: SwapSettings, preferences: readonly Preference[]) => {
    const before = plans.length
    const base = { holdings, requests, method, access, swap: settings, needFor }
    for (const chain of holdings)
      for (const prefer of preferences) {
        if (settings !== NO_SWAPS && prefer === 'same' && fundedAlone.has(chain.chainId)) continue
        const plan = settlePlan({ ...base, order: [chain.chainId], prefer })
        if (plan && settings === NO_SWAPS) fundedAlone.add(chain.chainId)
        add(plan)
      }
    if (plans.length > before) return
    const order = splitOrder({ holdings, requests, destinationChainId, method, access, swap: settings })
    if (order.length >= 2) add(settlePlan({ ...base, order, prefer: 'same' }))
  }
  // The requested token (and ETH/WETH) alone first: alps prefers these, blanc lists them too.
  round(NO_SWAPS, ['same'])
  if (parameters.swap) round(swap, ['same', 'swap'])
  return plans
}

/**
 * The chains a multi-chain split takes from, in order: the destination chain first, then the
 * chains whose holdings are worth the most to the requests (by `method`), none worth nothing.
 */
function splitOrder(parameters: {
  holdings: readonly ChainHoldings[]
  requests: readonly PlanRequest[]
  destinationChainId: number
  method: FundingMethod
  access: AccessList | undefined
  swap: SwapSettings
}): number[] {
  const { holdings, requests, destinationChainId, method, access, swap } = parameters
  const total = (chainId: number) =>
    requests.reduce((sum, r) => {
      const { direct, swaps } = findCandidates(holdings, [chainId], r, swap)
      const to = { decimals: r.token.decimals, price: swap.price(r.symbol) ?? 0 }
      return [...direct, ...swaps].reduce((s, c) => {
        const from = { decimals: c.holding.token.decimals, price: swap.price(c.holding.token.symbol) ?? 0 }
        return s + valueCovered(spendable(chainId, c.holding, method, access), c.kind, from, to)
      }, sum)
    }, 0n)
  const totals = new Map(holdings.map((h) => [h.chainId, total(h.chainId)]))
  const at = (c: number) => totals.get(c) ?? 0n
  return holdings
    .map((h) => h.chainId)
    .filter((c) => at(c) > 0n)
    .sort((a, b) =>
      a === destinationChainId
        ? -1
        : b === destinationChainId
          ? 1
          : at(b) > at(a)
            ? 1
            : at(b) < at(a)
              ? -1
              : a - b,
    )
}
