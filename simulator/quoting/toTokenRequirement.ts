import type { Shortfall, TokenRequirement } from './types'

/** A request's shortfall as the service answers it: raw amounts as decimal strings. */
export const toTokenRequirement = (m: Shortfall): TokenRequirement => ({
  tokenAddress: m.token,
  symbol: m.symbol,
  required: m.required.toString(),
  available: m.available.toString(),
  missing: m.missing.toString(),
})
