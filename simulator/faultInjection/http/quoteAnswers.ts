import type { AlpsRouteResponse, BlancRouteResponse } from '../../../spec'
import type { Has } from './types'

/** Raw integer strings moved by `delta` (fee parts, deadlines). */
const shift = (value: string | number, delta: bigint) => (BigInt(value) + delta).toString()

/**
 * The alps answer with the `quotes.*` cost and deadline faults applied (fields read by the client,
 * not re-signed), in place: the plugin's preSerialization hook of the quote routes runs it on the
 * answer the route shaped.
 *
 * @example
 * faultyAlps(payload as AlpsRouteResponse, faults)
 */
export function faultyAlps(route: AlpsRouteResponse, faults: Has): AlpsRouteResponse {
  const { intentOp, intentCost } = route
  const usd = intentCost.feeBreakdownUSD
  if (faults.has('quotes.fee-total-mismatch')) {
    for (const t of intentCost.tokensReceived) t.fee = Number(t.fee) + 1
    usd.totalFeeUSD += 0.01
  }
  if (faults.has('quotes.negative-fee-part')) {
    for (const t of intentCost.tokensReceived) {
      t.feeBreakdown.swapFee = shift(t.feeBreakdown.swapFee, -1n)
      t.fee = Number(t.fee) - 1
      t.amountSpent = Number(t.amountSpent) - 1
    }
    usd.swapFeeUSD -= 0.01
    usd.totalFeeUSD -= 0.01
  }
  if (faults.has('quotes.expires-before-fill-deadline'))
    intentOp.expires = shift(intentOp.elements[0]?.mandate.fillDeadline ?? intentOp.expires, -1n)
  if (faults.has('quotes.deadlines-in-the-past')) {
    const twoDays = -2n * 86_400n
    intentOp.expires = shift(intentOp.expires, twoDays)
    for (const e of intentOp.elements) e.mandate.fillDeadline = shift(e.mandate.fillDeadline, twoDays)
  }
  if (!intentCost.hasFulfilledAll) {
    if (faults.has('quotes.invert-has-fulfilled'))
      for (const t of intentCost.tokensReceived) t.hasFulfilled = !t.hasFulfilled
    if (faults.has('quotes.shortfall-on-covered')) {
      for (const t of intentCost.tokensReceived) t.hasFulfilled = false
      for (const r of Object.values(route.tokenRequirements ?? {}) as Record<string, string>[])
        if (r.missing === '0') Object.assign(r, { available: '0', missing: r.required })
    }
  }
  return route
}

/**
 * The blanc answer with the `quotes.*` order and cost faults applied, in place (as {@link faultyAlps}).
 *
 * @example
 * faultyBlanc(payload as BlancRouteResponse, faults)
 */
export function faultyBlanc(answer: BlancRouteResponse, faults: Has): BlancRouteResponse {
  type Fees = { totalUsd: number; breakdown: { swap: { usd: number } } }
  const feesOf = (route: BlancRouteResponse['routes'][number]) =>
    (route.cost as unknown as { fees: Fees }).fees
  if (faults.has('quotes.routes-most-expensive-first')) answer.routes.reverse()
  for (const route of answer.routes) {
    const fees = feesOf(route)
    if (faults.has('quotes.fee-total-mismatch')) fees.totalUsd += 0.01
    if (faults.has('quotes.negative-fee-part')) {
      fees.breakdown.swap.usd -= 0.01
      fees.totalUsd -= 0.01
    }
  }
  return answer
}
