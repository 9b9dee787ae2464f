import type { PriceTable } from '../prices/prices'
import { MissingPriceError } from './errors'

/** The USD price of `symbol` in the table; throws Quote.MissingPriceError (a 422) when it has none. */
export function requirePrice(prices: Pick<PriceTable, 'get'>, symbol: string): number {
  const price = prices.get(symbol)
  if (price === undefined) throw new MissingPriceError(symbol)
  return price
}
