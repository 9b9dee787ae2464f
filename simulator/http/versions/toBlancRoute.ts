/** A 0x-prefixed address (viem's Address; routes do not import viem). */
type Address = `0x${string}`

import { microUsd, usdNumber } from '../../prices/prices'
import type { QuotedRoute } from '../../quoting/buildQuotedRoute'
import type { FeeParts } from '../../quoting/fees'
import type { KeptRoute } from '../../quoting/quotingService'
import type { QuotedSignData } from '../../quoting/types'

/** A blanc route's `cost.fees.breakdown`: the fee parts under their blanc names. */
export type BlancFeeBreakdown = {
  gas: BlancFeeLine
  bridge: BlancFeeLine
  protocol: BlancFeeLine
  swap: BlancFeeLine
  settlement: BlancFeeLine
}

/** One fee part of a blanc route: its USD value and its amount per requested token. */
export type BlancFeeLine = {
  usd: number
  amounts: { tokenAddress: Address; symbol: string; amount: string }[]
}

/** A blanc route as the service answers it (the spec's BlancRoute, with every field the devnet fills). */
export type QuotedBlancRoute = {
  intentId: string
  expiresAt: number
  fundingMethod: string
  settlementLayer: string
  estimatedFillTime: { seconds: number }
  cost: {
    input: {
      chainId: number
      tokenAddress: Address
      symbol: string
      amount: string
      usd: number
      kind: 'SAME' | 'WRAP' | 'SWAP'
      forOutput: { tokenAddress: Address; amount: string }
    }[]
    output: { chainId: number; tokenAddress: Address; symbol: string; amount: string; usd: number }[]
    fees: { totalUsd: number; breakdown: BlancFeeBreakdown }
  }
  signData: QuotedSignData
}

/**
 * The blanc answer of a quote (`POST /intents/route` in blanc, `POST /quotes`): each kept route
 * as a blanc route, cheapest first.
 *
 * @example
 * const answer = toBlancRouteResponse(await quoting.quoteEvery(request))
 */
export function toBlancRouteResponse(kept: { routes: readonly KeptRoute[] }): { routes: QuotedBlancRoute[] } {
  return { routes: kept.routes.map((k) => toBlancRoute(k.route, k)) }
}

/**
 * The blanc route of a quoted route, stored as `stored.intentId`: its cost (inputs and what each
 * pays for, outputs, fee breakdown with USD), expiry and the typed data the user signs.
 *
 * @example
 * const blanc = toBlancRoute(route, { intentId, expiresAt })
 */
export function toBlancRoute(
  route: QuotedRoute,
  stored: { intentId: string; expiresAt: number },
): QuotedBlancRoute {
  const { quoted, fees } = route
  const prices = quoted.intentOp.signedMetadata.tokenPrices
  const output = quoted.outputs.map((o) => ({
    chainId: quoted.destinationChainId,
    tokenAddress: o.token,
    symbol: o.symbol,
    amount: o.amount.toString(),
    usd: usdNumber(microUsd(o.amount, o.decimals, prices[o.symbol] ?? 0)),
  }))
  const line = (key: keyof FeeParts): BlancFeeLine => {
    const amounts = quoted.outputs.map((o, i) => ({
      tokenAddress: o.token,
      symbol: o.symbol,
      amount: (fees[i]?.user[key] ?? 0n).toString(),
    }))
    const micro = quoted.outputs.reduce(
      (s, o, i) => s + microUsd(fees[i]?.user[key] ?? 0n, o.decimals, prices[o.symbol] ?? 0),
      0n,
    )
    return { usd: usdNumber(micro), amounts }
  }
  const breakdown: BlancFeeBreakdown = {
    gas: line('gasFee'),
    bridge: line('bridgeFee'),
    protocol: line('protocolFee'),
    swap: line('swapFee'),
    settlement: line('settlementFee'),
  }
  return {
    intentId: stored.intentId,
    expiresAt: stored.expiresAt,
    fundingMethod: quoted.fundingMethod,
    settlementLayer: quoted.settlementLayer,
    estimatedFillTime: { seconds: quoted.originChainIds.length > 1 ? 4 : 2 },
    cost: {
      input: quoted.sources.flat().map((s) => ({
        chainId: s.chainId,
        tokenAddress: s.token,
        symbol: s.symbol,
        amount: s.amount.toString(),
        usd: usdNumber(microUsd(s.amount, s.decimals, prices[s.symbol] ?? 0)),
        // SAME token, WRAP (ETH <-> WETH 1:1) or SWAP, and the part of the output (amount + fees) it pays for.
        kind: s.kind ?? 'SAME',
        forOutput: { tokenAddress: s.forToken ?? s.token, amount: (s.value ?? s.amount).toString() },
      })),
      output,
      fees: { totalUsd: quoted.totalCostUsd, breakdown },
    },
    signData: quoted.signData,
  }
}
