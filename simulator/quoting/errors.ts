import { BaseError } from '../../spec/BaseError'
import type { TokenRequirement } from './types'

const docsPath = 'docs/quoting.md'

/** The facts of an {@link UnknownChainError}: the destination and the chains run, or the access list's unknown chains. */
export type UnknownChainData = { destinationChainId: number; chains: number[] } | { unknownChains: number[] }

/** A chain the request names (destination or access list) is not run by this devnet. */
export class UnknownChainError extends BaseError {
  override name = 'Quote.UnknownChainError'
  constructor(message: string, data: UnknownChainData) {
    super(message, { data, docsPath })
  }
}

/** The facts of an {@link UnknownTokenError}: the requested token and its chain, or the access list's unknown tokens. */
export type UnknownTokenData = { tokenAddress: string; chainId: number } | { unknownTokens: string[] }

/** A token the request names is not one this devnet knows on that chain. */
export class UnknownTokenError extends BaseError {
  override name = 'Quote.UnknownTokenError'
  constructor(message: string, data: UnknownTokenData) {
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

/**
 * The intent has nothing to fund on any chain: every amount requested is 0 and no fee is left
 * to pay (they are sponsored), so there is no element to sign.
 */
export class NothingToFundError extends BaseError {
  override name = 'Quote.NothingToFundError'
  constructor() {
    super('The intent has nothing to fund: every token request is 0 and its fees are sponsored.', {
      data: {},
      docsPath,
    })
  }
}

/** The price table has no USD price for a token the quote needs. */
export class MissingPriceError extends BaseError {
  override name = 'Quote.MissingPriceError'
  constructor(symbol: string) {
    super(`No USD price for ${symbol}; set one with POST /_devnet/prices.`, { data: { symbol }, docsPath })
  }
}

/**
 * No route can fund the requested tokens with what the account holds on the chains it may use.
 * The message names the requests that fall short (all of them when none does alone: no plan
 * settled for them together); `data.tokenRequirements` has every request's row.
 */
export class InsufficientLiquidityError extends BaseError {
  override name = 'Quote.InsufficientLiquidityError'
  constructor(tokenRequirements: readonly TokenRequirement[]) {
    const falling = tokenRequirements.filter((m) => m.missing !== '0')
    const short = falling.length ? falling : tokenRequirements
    super(
      `The account cannot fund ${short
        .map((m) => `${m.required} ${m.symbol} (has ${m.available})`)
        .join(', ')} on the chains it may use.`,
      { data: { tokenRequirements }, docsPath },
    )
  }
}

const budget = (bytes: number) =>
  bytes >= 1024 * 1024 ? `${Math.round(bytes / 1024 / 1024)} MiB` : `${Math.ceil(bytes / 1024)} KiB`

/** The facts of a {@link QuoteStoreFullError}. */
export type QuoteStoreFullData = {
  /** The store's memory budget, in bytes. */
  maxBytes: number
  /** Live quotes kept (every one still answers until its `expiresAt`). */
  quotes: number
  /** Seconds until the oldest live quote expires and frees room. */
  retryAfterSeconds: number
}

/**
 * The quote store's memory budget is reached: a new quote is refused rather than a live one
 * forgotten (docs/quoting.md, "How long a quote lives"). Quotes already given out still submit.
 */
export class QuoteStoreFullError extends BaseError {
  override name = 'Quote.QuoteStoreFullError'
  readonly retryAfterSeconds: number
  constructor(data: QuoteStoreFullData) {
    super(
      `The quote store is full (${data.quotes} live quotes, ${budget(data.maxBytes)} budget); no new quote until older ones expire. Retry in ${data.retryAfterSeconds} s.`,
      { data, docsPath },
    )
    this.retryAfterSeconds = data.retryAfterSeconds
  }
}
