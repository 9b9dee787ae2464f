import { BaseError } from '../util/BaseError'

const docsPath = 'docs/quoting.md'

/** A chain the request names (destination or access list) is not run by this devnet. */
export class UnknownChainError extends BaseError {
  override name = 'Quote.UnknownChainError'
  constructor(message: string, data: Record<string, unknown>) {
    super(message, { data, docsPath })
  }
}

/** A token the request names is not one this devnet knows on that chain. */
export class UnknownTokenError extends BaseError {
  override name = 'Quote.UnknownTokenError'
  constructor(message: string, data: Record<string, unknown>) {
    super(message, { data, docsPath })
  }
}

/** `account.accountType` is none of the types the service quotes for. */
export class UnknownAccountTypeError extends BaseError {
  override name = 'Quote.UnknownAccountTypeError'
  constructor(accountType: unknown, accepted: readonly string[]) {
    super(`Unknown accountType '${accountType}'; accepted: ${accepted.join(', ')}.`, {
      data: { accountType, accepted },
      docsPath,
    })
  }
}

/** `destinationGasUnits` does not fit the Mandate's uint128 `minGas`. */
export class GasUnitsTooLargeError extends BaseError {
  override name = 'Quote.GasUnitsTooLargeError'
  constructor(destinationGasUnits: unknown) {
    super(
      `destinationGasUnits must be below 2^128 (the Mandate's minGas is a uint128), got ${destinationGasUnits}.`,
      { data: { destinationGasUnits: String(destinationGasUnits) }, docsPath },
    )
  }
}

/** The price table has no USD price for a token the quote needs. */
export class MissingPriceError extends BaseError {
  override name = 'Quote.MissingPriceError'
  constructor(symbol: string) {
    super(`No USD price for ${symbol}; set one with POST /_devnet/prices.`, { data: { symbol }, docsPath })
  }
}

/** No route can fund the requested tokens with what the account holds on the chains it may use. */
export class InsufficientLiquidityError extends BaseError {
  override name = 'Quote.InsufficientLiquidityError'
  constructor(message: string, data: Record<string, unknown>) {
    super(message, { data, docsPath })
  }
}
