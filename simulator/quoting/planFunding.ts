import type { Address } from 'viem'
import type { TokenInfo } from '../../contracts/addresses'
import type { ChainHoldings } from './readBalances'
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

/** A way to fund every request: which chains, and what each source gives. */
export type FundingPlan = {
  method: FundingMethod
  /** Origin chains, destination first if used, then in the order taken. */
  chainIds: number[]
  /** Per request (same order as the requests), the sources it takes, and the total it needs (amount + user fees). */
  allocations: { need: bigint; sources: FundingSource[] }[]
}

/** What a plan must take per request for a given set of origin chains (amount + the user's fees). */
export type NeedFor = (chainIds: number[]) => bigint[]

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

/** What the account can spend of `symbol` on a chain by `method`. */
function available(
  holdings: ChainHoldings,
  symbol: string,
  method: FundingMethod,
  access: AccessList | undefined,
) {
  const h = holdings.tokens.find((t) => t.token.symbol === symbol)
  if (!h || !isAllowed(access, holdings.chainId, h.token)) return undefined
  const amount =
    method === 'COMPACT' ? h.locked : h.wallet < h.permit2Allowance ? h.wallet : h.permit2Allowance
  return { holding: h, amount }
}

function allocate(
  holdings: readonly ChainHoldings[],
  order: number[],
  requests: readonly PlanRequest[],
  needs: bigint[],
  method: FundingMethod,
  access: AccessList | undefined,
): FundingPlan | undefined {
  const allocations: FundingPlan['allocations'] = []
  const used: number[] = []
  for (const [r, request] of requests.entries()) {
    let left = needs[r] ?? 0n
    const sources: FundingSource[] = []
    for (const chainId of order) {
      if (left === 0n) break
      const chain = holdings.find((h) => h.chainId === chainId)
      const avail = chain && available(chain, request.symbol, method, access)
      if (!avail || avail.amount === 0n) continue
      const take = avail.amount < left ? avail.amount : left
      left -= take
      sources.push({
        chainId,
        token: avail.holding.token.address,
        symbol: avail.holding.token.symbol,
        decimals: avail.holding.token.decimals,
        lockId: avail.holding.lockId,
        amount: take,
      })
      if (!used.includes(chainId)) used.push(chainId)
    }
    if (left > 0n) return undefined
    allocations.push({ need: needs[r] ?? 0n, sources })
  }
  return { method, chainIds: order.filter((c) => used.includes(c)), allocations }
}

/**
 * Every plan that works for one funding method (pure): a single-chain plan for each origin chain
 * able to fund every request alone, and, when no chain can, a multi-chain split (destination
 * chain first, then the chains holding the most). Fees depend on the chains used, so the split is
 * recomputed until its chain set is stable.
 */
export function planFunding(parameters: {
  holdings: readonly ChainHoldings[]
  requests: readonly PlanRequest[]
  destinationChainId: number
  method: FundingMethod
  access?: AccessList | undefined
  needFor: NeedFor
}): FundingPlan[] {
  const { holdings, requests, destinationChainId, method, access, needFor } = parameters
  const plans: FundingPlan[] = []
  for (const chain of holdings) {
    const plan = allocate(holdings, [chain.chainId], requests, needFor([chain.chainId]), method, access)
    if (plan) plans.push(plan)
  }
  if (plans.length > 0) return plans

  const total = (chainId: number) =>
    requests.reduce((sum, r) => {
      const chain = holdings.find((h) => h.chainId === chainId)
      return sum + (chain ? (available(chain, r.symbol, method, access)?.amount ?? 0n) : 0n)
    }, 0n)
  let order = holdings
    .map((h) => h.chainId)
    .filter((c) => total(c) > 0n)
    .sort((a, b) =>
      a === destinationChainId
        ? -1
        : b === destinationChainId
          ? 1
          : total(b) > total(a)
            ? 1
            : total(b) < total(a)
              ? -1
              : a - b,
    )
  if (order.length < 2) return plans
  for (let i = 0; i < order.length + 1; i++) {
    const plan = allocate(holdings, order, requests, needFor(order), method, access)
    if (!plan) return plans
    if (plan.chainIds.length === order.length) {
      plans.push(plan)
      return plans
    }
    order = plan.chainIds
  }
  return plans
}

/** What is missing when no plan works: per request, the most any method could take versus what it needs. */
export function shortfall(parameters: {
  holdings: readonly ChainHoldings[]
  requests: readonly PlanRequest[]
  access?: AccessList | undefined
  needFor: NeedFor
}): { token: Address; symbol: string; required: bigint; available: bigint; missing: bigint }[] {
  const { holdings, requests, access, needFor } = parameters
  const needs = needFor(holdings.map((h) => h.chainId))
  return requests.map((request, r) => {
    const sum = (method: FundingMethod) =>
      holdings.reduce((s, h) => s + (available(h, request.symbol, method, access)?.amount ?? 0n), 0n)
    const compact = sum('COMPACT')
    const permit2 = sum('PERMIT2')
    const best = compact > permit2 ? compact : permit2
    const required = needs[r] ?? request.amount
    return {
      token: request.token.address,
      symbol: request.symbol,
      required,
      available: best,
      missing: required > best ? required - best : 0n,
    }
  })
}

/**
 * When no plan works (alps answers `hasFulfilledAll: false`): everything the account could give by
 * the method that holds the most, on every allowed chain. If it holds nothing, one empty source on
 * the destination chain, so the intent keeps its shape.
 */
export function partialPlan(parameters: {
  holdings: readonly ChainHoldings[]
  requests: readonly PlanRequest[]
  destinationChainId: number
  access?: AccessList | undefined
}): FundingPlan {
  const { holdings, requests, destinationChainId, access } = parameters
  const total = (method: FundingMethod) =>
    holdings.reduce(
      (s, h) => s + requests.reduce((a, r) => a + (available(h, r.symbol, method, access)?.amount ?? 0n), 0n),
      0n,
    )
  const method: FundingMethod = total('COMPACT') > total('PERMIT2') ? 'COMPACT' : 'PERMIT2'
  const order = holdings.map((h) => h.chainId)
  const needs = requests.map((r) =>
    holdings.reduce((s, h) => s + (available(h, r.symbol, method, access)?.amount ?? 0n), 0n),
  )
  const plan = allocate(holdings, order, requests, needs, method, access) as FundingPlan
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
        sources: [
          {
            chainId: destinationChainId,
            token: holding.token.address,
            symbol: holding.token.symbol,
            decimals: holding.token.decimals,
            lockId: holding.lockId,
            amount: 0n,
          },
        ],
      },
      ...requests.slice(1).map(() => ({ need: 0n, sources: [] })),
    ],
  }
}
