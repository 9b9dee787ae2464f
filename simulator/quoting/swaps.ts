import { type Address, zeroAddress } from 'viem'
import type { TokenInfo } from '../../contracts/addresses'
import { pow10, priceE8 } from '../prices/prices'
import { bps } from './fees'

/**
 * Native ether as a token: the zero address (The Compact's lock id token for native deposits,
 * and the IntentFiller's "send value" marker in `tokenOut`). It may be requested as tokenOut and
 * spent from Compact locks; Permit2 cannot move it.
 */
export const NATIVE_ETH: TokenInfo = { symbol: 'ETH', name: 'Ether', address: zeroAddress, decimals: 18 }

/** Whether `token` is native ether (the zero address). */
export const isNative = (token: Address | string): boolean => token.toLowerCase() === zeroAddress

/** Every chain's token list with native ETH added (once). */
export function withNative(
  tokens: Record<number, readonly TokenInfo[]>,
): Record<number, readonly TokenInfo[]> {
  return Object.fromEntries(
    Object.entries(tokens).map(([chainId, list]) => [
      chainId,
      list.some((t) => isNative(t.address)) ? list : [...list, NATIVE_ETH],
    ]),
  )
}

/**
 * How a source token funds a requested token:
 * - `SAME`: the same symbol (bridged as is),
 * - `WRAP`: ETH <-> WETH, 1:1, no swap fee (wrapping is not a trade),
 * - `SWAP`: another token, converted at the USD price table, with the swap fee.
 */
export type SourceKind = 'SAME' | 'WRAP' | 'SWAP'

const ETHER = new Set(['ETH', 'WETH'])

/** How a source token of symbol `sourceSymbol` pays for a request of `requestSymbol` ({@link SourceKind}). */
export function sourceKind(sourceSymbol: string, requestSymbol: string): SourceKind {
  const a = sourceSymbol.toUpperCase()
  const b = requestSymbol.toUpperCase()
  if (a === b) return 'SAME'
  if (ETHER.has(a) && ETHER.has(b)) return 'WRAP'
  return 'SWAP'
}

/** How swaps are priced: the user's swap fee (0 when sponsored) and the USD price table. */
export type SwapSettings = {
  /** Basis points of the swapped value the user pays (0 when `swapFeesSponsored`). */
  userBps: bigint
  /** USD price of a symbol; undefined: the token cannot be swapped. */
  price: (symbol: string) => number | undefined
}

/** No swaps: every token is unpriced, so requests are funded by the same token (and ETH/WETH) only. */
export const NO_SWAPS: SwapSettings = { userBps: 0n, price: () => undefined }

/** A token with its USD price (only read for `SWAP`). */
export type PricedToken = { decimals: number; price: number }

/**
 * The most of the requested token `raw` units of the source can pay for (rounded down):
 * `raw * priceIn * 10^decimalsOut / (priceOut * 10^decimalsIn)`; 1:1 for SAME and WRAP.
 */
export function valueCovered(raw: bigint, kind: SourceKind, from: PricedToken, to: PricedToken): bigint {
  if (kind !== 'SWAP') return raw
  const denominator = priceE8(to.price) * pow10(from.decimals)
  if (denominator === 0n) return 0n
  return (raw * priceE8(from.price) * pow10(to.decimals)) / denominator
}

/**
 * The source units the user gives for `value` units of the requested token (rounded up, in the
 * service's favour). For any `value <= valueCovered(raw)` the result is `<= raw`.
 */
export function amountFor(value: bigint, kind: SourceKind, from: PricedToken, to: PricedToken): bigint {
  if (kind !== 'SWAP') return value
  const numerator = value * priceE8(to.price) * pow10(from.decimals)
  const denominator = priceE8(from.price) * pow10(to.decimals)
  return (numerator + denominator - 1n) / denominator
}

/**
 * The swapped value `s` that pays for `left` units and its own swap fee: the least `s` with
 * `s = left + ceil(s * feeBps / 10000)` (the fee is charged on the whole swapped value).
 */
export function swappedFor(left: bigint, feeBps: bigint): bigint {
  if (left <= 0n) return 0n
  let s = left
  for (;;) {
    const next = left + bps(s, feeBps)
    if (next === s) return s
    s = next
  }
}
