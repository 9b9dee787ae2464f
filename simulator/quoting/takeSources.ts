import { type Candidate, findCandidates } from './findCandidates'
import { spendable } from './spendable'
import { amountFor, type PricedToken, type SwapSettings, valueCovered } from './swaps'
import type { AccessList, ChainHoldings, FundingMethod, FundingSource, PlanRequest } from './types'

/** Raw units still spendable per chain and token while one plan is allocated (requests may share a source). */
export type Remaining = { map: Map<string, bigint>; method: FundingMethod; access: AccessList | undefined }

/** Where {@link takeFrom} records what it takes. */
export type TakeContext = {
  remaining: Remaining
  swap: SwapSettings
  /** The requested token, priced. */
  to: PricedToken
  request: PlanRequest
  /** The request's sources so far: taken sources are appended. */
  sources: FundingSource[]
  /** Origin chains used so far, in the order taken: new ones are appended. */
  used: number[]
}

/** Nothing taken yet: every holding offers what {@link spendable} says. */
export const createRemaining = (method: FundingMethod, access: AccessList | undefined): Remaining => ({
  map: new Map(),
  method,
  access,
})

/** The smaller of two bigints (Math.min takes numbers only). */
export function smaller(a: bigint, b: bigint): bigint {
  if (a < b) return a
  return b
}

// Module-level helpers rather than closures: tsx (esbuild keepNames) names every closure at each
// creation, which was a fifth of the planner's time.
function sourceKey(c: Candidate): string {
  return `${c.chainId}:${c.holding.token.address.toLowerCase()}`
}

function leftOf(remaining: Remaining, c: Candidate): bigint {
  const key = sourceKey(c)
  let v = remaining.map.get(key)
  if (v === undefined) {
    v = spendable(c.chainId, c.holding, remaining.method, remaining.access)
    remaining.map.set(key, v)
  }
  return v
}

function pricedOf(c: Candidate, swap: SwapSettings): PricedToken {
  return { decimals: c.holding.token.decimals, price: swap.price(c.holding.token.symbol) ?? 0 }
}

function worthOf(remaining: Remaining, c: Candidate, swap: SwapSettings, to: PricedToken): bigint {
  return valueCovered(leftOf(remaining, c), c.kind, pricedOf(c, swap), to)
}

/** Takes `total` (in the requested token) from `list` in order; false when the list cannot give it. */
export function takeFrom(list: readonly Candidate[], total: bigint, context: TakeContext): boolean {
  const { remaining, swap, to, request, sources, used } = context
  let want = total
  for (const c of list) {
    if (want === 0n) break
    const max = worthOf(remaining, c, swap, to)
    if (max === 0n) continue
    const value = smaller(max, want)
    const amount = amountFor(value, c.kind, pricedOf(c, swap), to)
    remaining.map.set(sourceKey(c), leftOf(remaining, c) - amount)
    want -= value
    sources.push({
      chainId: c.chainId,
      token: c.holding.token.address,
      symbol: c.holding.token.symbol,
      decimals: c.holding.token.decimals,
      lockId: c.holding.lockId,
      amount,
      forToken: request.token.address,
      value,
      kind: c.kind,
    })
    if (!used.includes(c.chainId)) used.push(c.chainId)
  }
  return want === 0n
}

/**
 * A request's candidate sources, and what they are still worth to it (raw units of its token):
 * `D` from its own token (and ETH/WETH 1:1), `W` from swaps, after what `remaining` says is taken.
 */
export function leftFor(
  holdings: readonly ChainHoldings[],
  order: readonly number[],
  request: PlanRequest,
  swap: SwapSettings,
  remaining: Remaining,
) {
  const { direct, swaps } = findCandidates(holdings, order, request, swap)
  const to = { decimals: request.token.decimals, price: swap.price(request.symbol) ?? 0 }
  let D = 0n
  for (const c of direct) D += worthOf(remaining, c, swap, to)
  let W = 0n
  for (const c of swaps) W += worthOf(remaining, c, swap, to)
  return { direct, swaps, to, D, W }
}
