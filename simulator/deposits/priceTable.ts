/** USD prices by token symbol: the one table the deposit rules (and quoting) read. */
export type PriceTable = {
  /** The USD price of `symbol`, or undefined when the table has none. */
  get(symbol: string): number | undefined
  /** Sets prices (merging) and returns every price after the change. */
  setPrices(prices: Record<string, number>): Promise<Record<string, number>>
  /** Every price. */
  all(): Record<string, number>
}

/** The devnet's default prices: stablecoins at their peg, ether at a round number. */
export const DEFAULT_PRICES: Readonly<Record<string, number>> = {
  USDC: 1,
  USDT: 1,
  USDT0: 1,
  DAI: 1,
  ETH: 3000,
  WETH: 3000,
}

/** Symbols that are USD stablecoins: a bridge between two of them is checked against maxPriceDeviationBps. */
export const STABLECOIN_SYMBOLS: ReadonlySet<string> = new Set(['USDC', 'USDT', 'USDT0', 'DAI', 'USDBC'])

/**
 * Creates an in-memory price table (the devnet's `POST /_devnet/prices` changes it).
 *
 * @example
 * const prices = createPriceTable()
 * await prices.setPrices({ USDT: 0.97 })
 * prices.get('USDT') // 0.97
 */
export function createPriceTable(initial: Record<string, number> = DEFAULT_PRICES): PriceTable {
  const table = new Map<string, number>(Object.entries(initial).map(([k, v]) => [k.toUpperCase(), v]))
  return {
    get: (symbol) => table.get(symbol.toUpperCase()),
    async setPrices(prices) {
      for (const [symbol, price] of Object.entries(prices)) {
        if (!Number.isFinite(price) || price <= 0)
          throw new RangeError(`Price of ${symbol} must be a positive number.`)
        table.set(symbol.toUpperCase(), price)
      }
      return Object.fromEntries(table)
    },
    all: () => Object.fromEntries(table),
  }
}
