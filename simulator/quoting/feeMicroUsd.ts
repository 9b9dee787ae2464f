import { microUsd } from '../prices/prices'
import type { FeeParts } from './fees'
import type { PlanRequest } from './types'

// Module-level loops rather than closures: tsx (esbuild keepNames) names every named closure again
// each time it is created, which showed in the quote's profile.

/** What the user pays of one fee part over all requests, in micro-USD. */
export function userFeeMicroUsd(
  requests: readonly PlanRequest[],
  fees: readonly { user: FeeParts }[],
  price: (symbol: string) => number,
  key: keyof FeeParts,
): bigint {
  let sum = 0n
  for (let i = 0; i < requests.length; i++) {
    const r = requests[i] as PlanRequest
    sum += microUsd(fees[i]?.user[key] ?? 0n, r.token.decimals, price(r.symbol))
  }
  return sum
}

/** What the sponsor pays of some fee parts over all requests (summed per request, then priced), in micro-USD. */
export function sponsoredMicroUsd(
  requests: readonly PlanRequest[],
  fees: readonly { sponsored: FeeParts }[],
  price: (symbol: string) => number,
  keys: readonly (keyof FeeParts)[],
): bigint {
  let sum = 0n
  for (let i = 0; i < requests.length; i++) {
    const r = requests[i] as PlanRequest
    let raw = 0n
    for (const k of keys) raw += fees[i]?.sponsored[k] ?? 0n
    sum += microUsd(raw, r.token.decimals, price(r.symbol))
  }
  return sum
}
