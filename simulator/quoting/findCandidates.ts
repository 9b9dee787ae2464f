import { type SourceKind, type SwapSettings, sourceKind } from './swaps'
import type { ChainHoldings, PlanRequest, TokenHolding } from './types'

/** A holding that can pay for a request, and how. */
export type Candidate = { chainId: number; holding: TokenHolding; kind: SourceKind }

/** A request's candidate sources: `direct` ones (same token, ETH/WETH 1:1), then `swaps`. */
export type Candidates = { readonly direct: readonly Candidate[]; readonly swaps: readonly Candidate[] }

const cache = new WeakMap<readonly ChainHoldings[], WeakMap<SwapSettings, Map<string, Candidates>>>()

/**
 * The holdings on `order`'s chains that can pay for `request`, in the order they are taken:
 * direct ones (same token, or ETH/WETH) and, when swaps are priced, every other priced token.
 */
export function findCandidates(
  holdings: readonly ChainHoldings[],
  order: readonly number[],
  request: PlanRequest,
  swap: SwapSettings,
): Candidates {
  // The planner asks again and again for the same lists while it settles each plan: they depend
  // only on these holdings, the chains, the requested symbol and the swap settings (read-only).
  let bySettings = cache.get(holdings)
  if (!bySettings) {
    bySettings = new WeakMap()
    cache.set(holdings, bySettings)
  }
  let byKey = bySettings.get(swap)
  if (!byKey) {
    byKey = new Map()
    bySettings.set(swap, byKey)
  }
  const key = `${order.join(',')}|${request.symbol}`
  let found = byKey.get(key)
  if (!found) {
    found = search(holdings, order, request, swap)
    byKey.set(key, found)
  }
  return found
}

function search(
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
