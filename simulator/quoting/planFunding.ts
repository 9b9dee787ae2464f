import type { Address } from 'viem'
import type { TokenInfo } from '../../contracts/addresses'
import { bps } from './fees'
import type { ChainHoldings, TokenHolding } from './readBalances'
import {
  amountFor,
  isNative,
  type PricedToken,
  type SourceKind,
  sourceKind,
  swappedFor,
  valueCovered,
} from './swaps'
import type { FundingMethod, FundingSource } from './types'

/** accountAccessList, as the route request carries it. */
export type AccessList = {
  chainIds?: (number | string)[] | undefined
  tokens?: string[] | undefined
  chainTokens?: Record<string, string[]> | undefined
  exclude?:
    | {
        chainIds?: (number | string)[] | undefined
        tokens?: string[] | undefined
        chainTokens?: Record<string, string[]> | undefined
      }
    | undefined
}

/** One wanted token on the destination, with the symbol that funds it on the origins. */
export type PlanRequest = { symbol: string; token: TokenInfo; amount: bigint }

/** What one request takes: its sources, the total it needs (amount + user fees), and how much of it is swapped. */
export type Allocation = {
  need: bigint
  /** Value of the request funded by SWAP sources (raw units of the requested token, swap fee included). */
  swapped: bigint
  sources: FundingSource[]
}

/** A way to fund every request: which chains, and what each source gives. */
export type FundingPlan = {
  method: FundingMethod
  /** Origin chains, destination first if used, then in the order taken. */
  chainIds: number[]
  /** Per request (same order as the requests). */
  allocations: Allocation[]
}

/**
 * What a plan must take per request (amount + the user's fees, WITHOUT the swap fee: the planner
 * adds it, since it depends on how much is swapped), for a set of origin chains and, once known,
 * the plan itself (gas depends on the lock ids per chain).
 */
export type NeedFor = (chainIds: number[], plan?: FundingPlan) => bigint[]

/** How swaps are priced: the user's swap fee (0 when sponsored) and the USD price table. */
export type SwapSettings = {
  /** Basis points of the swapped value the user pays (0 when `swapFeesSponsored`). */
  userBps: bigint
  /** USD price of a symbol; undefined: the token cannot be swapped. */
  price: (symbol: string) => number | undefined
}

const NO_SWAPS: SwapSettings = { userBps: 0n, price: () => undefined }

const matches = (token: TokenInfo, names: readonly string[]) =>
  names.some(
    (n) => n.toLowerCase() === token.address.toLowerCase() || n.toUpperCase() === token.symbol.toUpperCase(),
  )

/** Whether accountAccessList lets the account spend `token` on `chainId`. */
export function isAllowed(access: AccessList | undefined, chainId: number, token: TokenInfo): boolean {
  if (!access) return true
  if (access.chainIds && !access.chainIds.map(Number).includes(chainId)) return false
  if (access.tokens && !matches(token, access.tokens)) return false
  if (access.chainTokens) {
    const names = access.chainTokens[String(chainId)]
    if (!names || !matches(token, names)) return false
  }
  const ex = access.exclude
  if (ex) {
    if (ex.chainIds?.map(Number).includes(chainId)) return false
    if (ex.tokens && matches(token, ex.tokens)) return false
    const names = ex.chainTokens?.[String(chainId)]
    if (names && matches(token, names)) return false
  }
  return true
}

/** The smaller of two bigints (Math.min takes numbers only). */
function smaller(a: bigint, b: bigint): bigint {
  if (a < b) return a
  return b
}

/** What the account can spend of one holding by `method` (Permit2 never moves native ETH). */
function spendable(chainId: number, h: TokenHolding, method: FundingMethod, access: AccessList | undefined) {
  if (!isAllowed(access, chainId, h.token)) return 0n
  if (method === 'COMPACT') return h.locked
  if (isNative(h.token.address)) return 0n
  return smaller(h.wallet, h.permit2Allowance)
}

/** A holding that can pay for a request, and how. */
type Candidate = { chainId: number; holding: TokenHolding; kind: SourceKind }

/**
 * The holdings on `order`'s chains that can pay for `request`, in the order they are taken:
 * direct ones (same token, or ETH/WETH) and, when swaps are priced, every other priced token.
 */
function candidates(
  holdings: readonly ChainHoldings[],
  order: readonly number[],
  request: PlanRequest,
  swap: SwapSettings,
): Candidates {
  // The planner asks again and again for the same lists while it settles each plan: they depend
  // only on these holdings, the chains, the requested symbol and the swap settings (read-only).
  let bySettings = candidateCache.get(holdings)
  if (!bySettings) {
    bySettings = new WeakMap()
    candidateCache.set(holdings, bySettings)
  }
  let byKey = bySettings.get(swap)
  if (!byKey) {
    byKey = new Map()
    bySettings.set(swap, byKey)
  }
  const key = `${order.join(',')}|${request.symbol}`
  let found = byKey.get(key)
  if (!found) {
    found = findCandidates(holdings, order, request, swap)
    byKey.set(key, found)
  }
  return found
}

type Candidates = { readonly direct: readonly Candidate[]; readonly swaps: readonly Candidate[] }
const candidateCache = new WeakMap<readonly ChainHoldings[], WeakMap<SwapSettings, Map<string, Candidates>>>()

function findCandidates(
  holdings: readonly ChainHoldings[],
  order: readonly number[],
  request: PlanRequest,
  swap: SwapSettings,
): Candidates {
  const direct: Candidate[] = []
  const swaps: Candidate[] = []
  const canSwap = swap.price(request.symbol) !== undefined
  for (const chainId of order) {
    const chain = holdings.find((h) => h.chainId === chainId)
    if (!chain) continue
    const same = chain.tokens.filter((t) => sourceKind(t.token.symbol, request.symbol) === 'SAME')
    const wrap = chain.tokens.filter((t) => sourceKind(t.token.symbol, request.symbol) === 'WRAP')
    for (const holding of same) direct.push({ chainId, holding, kind: 'SAME' })
    for (const holding of wrap) direct.push({ chainId, holding, kind: 'WRAP' })
    if (canSwap)
      for (const holding of chain.tokens)
        if (
          sourceKind(holding.token.symbol, request.symbol) === 'SWAP' &&
          swap.price(holding.token.symbol) !== undefined
        )
          swaps.push({ chainId, holding, kind: 'SWAP' })
  }
  return { direct, swaps }
}

/** Which sources a plan takes first: the requested token (then swaps), or other tokens (then the requested one). */
export type Preference = 'same' | 'swap'

/** Raw units still spendable per chain and token while one plan is allocated (requests may share a source). */
type Remaining = { map: Map<string, bigint>; method: FundingMethod; access: AccessList | undefined }

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
function takeFrom(
  list: readonly Candidate[],
  total: bigint,
  context: {
    remaining: Remaining
    swap: SwapSettings
    to: PricedToken
    request: PlanRequest
    sources: FundingSource[]
    used: number[]
  },
): boolean {
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
function leftFor(
  holdings: readonly ChainHoldings[],
  order: number[],
  request: PlanRequest,
  swap: SwapSettings,
  remaining: Remaining,
) {
  const { direct, swaps } = candidates(holdings, order, request, swap)
  const to = { decimals: request.token.decimals, price: swap.price(request.symbol) ?? 0 }
  let D = 0n
  for (const c of direct) D += worthOf(remaining, c, swap, to)
  let W = 0n
  for (const c of swaps) W += worthOf(remaining, c, swap, to)
  return { direct, swaps, to, D, W }
}

function allocate(parameters: {
  holdings: readonly ChainHoldings[]
  order: number[]
  requests: readonly PlanRequest[]
  needs: bigint[]
  method: FundingMethod
  access: AccessList | undefined
  swap: SwapSettings
  prefer: Preference
}): FundingPlan | undefined {
  const { holdings, order, requests, needs, method, access, swap, prefer } = parameters
  const allocations: Allocation[] = []
  const used: number[] = []
  const remaining: Remaining = { map: new Map(), method, access }
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
function settle(parameters: Omit<Parameters<typeof allocate>[0], 'needs'> & { needFor: NeedFor }) {
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
export function planFunding(parameters: {
  holdings: readonly ChainHoldings[]
  requests: readonly PlanRequest[]
  destinationChainId: number
  method: FundingMethod
  access?: AccessList | undefined
  needFor: NeedFor
  /** Swap pricing; omitted: requests are funded by the same token (and ETH/WETH) only. */
  swap?: SwapSettings | undefined
}): FundingPlan[] {
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
  /** Single-chain plans with these swap settings; if none works, one multi-chain split. */
  // Chains that fund every request alone with the requested tokens: there, a swap round's "same
  // first" plan is that very plan (nothing left to swap), so it is not computed again.
  const fundedAlone = new Set<number>()
  const round = (settings: SwapSettings, preferences: readonly Preference[]) => {
    const before = plans.length
    const base = { holdings, requests, method, access, swap: settings, needFor }
    for (const chain of holdings)
      for (const prefer of preferences) {
        if (settings !== NO_SWAPS && prefer === 'same' && fundedAlone.has(chain.chainId)) continue
        const plan = settle({ ...base, order: [chain.chainId], prefer })
        if (plan && settings === NO_SWAPS) fundedAlone.add(chain.chainId)
        add(plan)
      }
    if (plans.length > before) return
    const total = (chainId: number) =>
      requests.reduce((sum, r) => {
        const { direct, swaps } = candidates(holdings, [chainId], r, settings)
        const to = { decimals: r.token.decimals, price: settings.price(r.symbol) ?? 0 }
        return [...direct, ...swaps].reduce((s, c) => {
          const from = {
            decimals: c.holding.token.decimals,
            price: settings.price(c.holding.token.symbol) ?? 0,
          }
          return s + valueCovered(spendable(chainId, c.holding, method, access), c.kind, from, to)
        }, sum)
      }, 0n)
    const totals = new Map(holdings.map((h) => [h.chainId, total(h.chainId)]))
    const at = (c: number) => totals.get(c) ?? 0n
    const order = holdings
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
    if (order.length >= 2) add(settle({ ...base, order, prefer: 'same' }))
  }
  // The requested token (and ETH/WETH) alone first: alps prefers these, blanc lists them too.
  round(NO_SWAPS, ['same'])
  if (parameters.swap) round(swap, ['same', 'swap'])
  return plans
}

/** One request's row of a best effort: what it needs (with the swap fee) against what is left for it. */
type EffortRow = { required: bigint; available: bigint }

/**
 * The most the account can do when no plan works, by one funding method: requests in order, each
 * taking what it needs (its token, ETH/WETH 1:1, then swaps) from what the earlier ones left, so
 * that two requests never count the same source twice. Per request: the value required (amount +
 * fees, plus the swap fee on what must be swapped), the value still available to it, and the
 * sources it would take (all it can, when short).
 */
function bestEffort(
  parameters: {
    holdings: readonly ChainHoldings[]
    requests: readonly PlanRequest[]
    access?: AccessList | undefined
    needs: readonly bigint[]
    swap: SwapSettings
  },
  method: FundingMethod,
): { method: FundingMethod; rows: EffortRow[]; plan: FundingPlan } {
  const { holdings, requests, access, needs, swap } = parameters
  const order = holdings.map((h) => h.chainId)
  const remaining: Remaining = { map: new Map(), method, access }
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
    const wanted = required - d
    const s = smaller(wanted, W)
    const sources: FundingSource[] = []
    const context = { remaining, swap, to, request, sources, used }
    takeFrom(direct, d, context)
    takeFrom(swaps, s, context)
    allocations.push({ need: d + s, swapped: s, sources })
  }
  return { method, rows, plan: { method, chainIds: order.filter((c) => used.includes(c)), allocations } }
}

/** The method whose best effort falls shortest of nothing: least missing in all, then most available. */
function bestMethod(parameters: Parameters<typeof bestEffort>[0]) {
  const total = (rows: EffortRow[], pick: (row: EffortRow) => bigint) =>
    rows.reduce((s, row) => s + pick(row), 0n)
  const missingOf = (row: EffortRow) => (row.required > row.available ? row.required - row.available : 0n)
  const efforts = (['COMPACT', 'PERMIT2'] as const).map((method) => bestEffort(parameters, method))
  return efforts.reduce((a, b) => {
    const [ma, mb] = [total(a.rows, missingOf), total(b.rows, missingOf)]
    if (mb !== ma) return mb < ma ? b : a
    return total(b.rows, (row) => row.available) > total(a.rows, (row) => row.available) ? b : a
  })
}

/**
 * What is missing when no plan works: per request, by the method that falls shortest, the value
 * the account can still put towards it after the earlier requests took theirs (its token, ETH/WETH
 * 1:1, and other tokens converted at the price table) versus what it needs (amount + fees, plus
 * the swap fee on what must be swapped).
 */
export function shortfall(parameters: {
  holdings: readonly ChainHoldings[]
  requests: readonly PlanRequest[]
  access?: AccessList | undefined
  needFor: NeedFor
  swap?: SwapSettings | undefined
}): { token: Address; symbol: string; required: bigint; available: bigint; missing: bigint }[] {
  const { holdings, requests, access, needFor } = parameters
  const needs = needFor(holdings.map((h) => h.chainId))
  const { rows } = bestMethod({ holdings, requests, access, needs, swap: parameters.swap ?? NO_SWAPS })
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

/**
 * When no plan works (alps answers `hasFulfilledAll: false`): what the account can give towards
 * each request, by the same method and in the same way as {@link shortfall} counts it (its token,
 * then swaps; the earlier requests first). If it can give nothing, one empty source on the
 * destination chain, so the intent keeps its shape.
 */
export function partialPlan(parameters: {
  holdings: readonly ChainHoldings[]
  requests: readonly PlanRequest[]
  destinationChainId: number
  access?: AccessList | undefined
  needFor: NeedFor
  swap?: SwapSettings | undefined
}): FundingPlan {
  const { holdings, requests, destinationChainId, access, needFor } = parameters
  const needs = needFor(holdings.map((h) => h.chainId))
  const { method, plan } = bestMethod({
    holdings,
    requests,
    access,
    needs,
    swap: parameters.swap ?? NO_SWAPS,
  })
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
