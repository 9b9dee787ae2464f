import { BaseError } from '../../spec/BaseError'

/** The devnet's token prices (`POST /_devnet/prices`). */
export interface PriceService {
  /** Sets USD prices by token symbol; returns every price after the change. */
  setPrices(prices: Record<string, number>): Promise<Record<string, number>>
}

/** Largest price the table keeps (USD): above it, fee arithmetic in 1e-8 USD loses exactness. */
export const MAX_PRICE_USD = 1e12
/** Smallest price the table keeps (USD): prices are kept in 1e-8 USD. */
export const MIN_PRICE_USD = 1e-8

/** A price that is not a finite number within [MIN_PRICE_USD, MAX_PRICE_USD]; nothing changed. */
export class InvalidPriceError extends BaseError {
  override name = 'Prices.InvalidPriceError'
  constructor(symbols: string[]) {
    super(`Prices must be numbers from ${MIN_PRICE_USD} to ${MAX_PRICE_USD} USD: ${symbols.join(', ')}.`, {
      data: { symbols },
      docsPath: 'docs/quoting.md',
    })
  }
}

/**
 * The devnet's USD price table, by token symbol: THE canonical one (quoting prices fees with it,
 * `POST /_devnet/prices` changes it, and the deposit rules should read the same instance).
 */
export type PriceTable = PriceService & {
  /** The USD price of `symbol` (case-insensitive), or undefined when the table has none. */
  get(symbol: string): number | undefined
  /** Every price. */
  all(): Record<string, number>
}

/** Default prices: stablecoins at their peg, ether at a round number. */
export const DEFAULT_PRICES: Readonly<Record<string, number>> = {
  USDC: 1,
  USDT: 1,
  USDT0: 1,
  DAI: 1,
  ETH: 3000,
  WETH: 3000,
}

/** Symbols that are USD stablecoins: a deposit bridged between two of them is checked against maxPriceDeviationBps (spec: Limits). */
export const STABLECOIN_SYMBOLS: ReadonlySet<string> = new Set(['USDC', 'USDT', 'USDT0', 'DAI', 'USDBC'])

/**
 * Creates the price table. `setPrices` merges and answers every price; a price that is not a
 * positive finite number is refused (400) and nothing changes.
 *
 * @example
 * const prices = createPriceTable()
 * await prices.setPrices({ WETH: 2500 })
 */
export function createPriceTable(initial: Readonly<Record<string, number>> = DEFAULT_PRICES): PriceTable {
  const table = new Map<string, number>(Object.entries(initial).map(([k, v]) => [k.toUpperCase(), v]))
  return {
    get: (symbol) => table.get(symbol.toUpperCase()),
    all: () => Object.fromEntries(table),
    async setPrices(prices) {
      const bad = Object.entries(prices).filter(
        ([, p]) => typeof p !== 'number' || !Number.isFinite(p) || p < MIN_PRICE_USD || p > MAX_PRICE_USD,
      )
      if (bad.length) throw new InvalidPriceError(bad.map(([s]) => s))
      for (const [symbol, price] of Object.entries(prices)) table.set(symbol.toUpperCase(), price)
      return Object.fromEntries(table)
    },
  }
}

/** Prices are handled as integers of 1e-8 USD, so fee arithmetic stays in integers. */
export const PRICE_SCALE = 100_000_000n

/** A USD price as an integer of 1e-8 USD. */
export const priceE8 = (price: number): bigint => BigInt(Math.round(price * 1e8))

const POWERS_OF_TEN = Array.from({ length: 78 }, (_, i) => 10n ** BigInt(i))

/** 10^decimals as a bigint (a table for the decimals tokens have, 0–77; computed beyond). */
export const pow10 = (decimals: number): bigint => POWERS_OF_TEN[decimals] ?? 10n ** BigInt(decimals)

/** The value of `raw` units of a token in micro-USD (integer, rounded down). */
export function microUsd(raw: bigint, decimals: number, price: number): bigint {
  return (raw * priceE8(price)) / (pow10(decimals) * 100n)
}

/** micro-USD as a JSON number of USD. */
export const usdNumber = (micro: bigint): number => Number(micro) / 1e6
