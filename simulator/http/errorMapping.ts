import type { BaseError } from '../../spec/BaseError'
import { AccountTakenError, InvalidConfigurationError } from '../deposits/errors'
import { DuplicateSubmissionError, QuoteNotFoundError, SubmissionRefusedError } from '../intents/errors'
import { InvalidPriceError } from '../prices/prices'
import * as quote from '../quoting/errors'
import * as withdrawal from '../withdrawals/errors'
import { ApiError, type ErrorCode } from './errorCodes'

// biome-ignore lint/suspicious/noExplicitAny: any error class, whatever its constructor takes
type ErrorClass = abstract new (...args: any[]) => BaseError

/**
 * The domain's error classes and the code of the error-code table each answers with. Domain
 * folders throw their own errors and know nothing of HTTP; this table is where the two meet.
 * `errorMapping.test.ts` checks that every domain error class is listed.
 */
export const DOMAIN_ERROR_CODES: ReadonlyArray<readonly [ErrorClass, ErrorCode]> = [
  [quote.UnknownChainError, 'VALIDATION_ERROR'],
  [quote.UnknownTokenError, 'VALIDATION_ERROR'],
  [quote.UnknownAccountTypeError, 'VALIDATION_ERROR'],
  [quote.GasUnitsTooLargeError, 'VALIDATION_ERROR'],
  [quote.MissingPriceError, 'UNPROCESSABLE_CONTENT'],
  [quote.InsufficientLiquidityError, 'INSUFFICIENT_LIQUIDITY'],
  [quote.QuoteStoreFullError, 'QUOTE_STORE_FULL'],
  [quote.NothingToFundError, 'UNPROCESSABLE_CONTENT'],
  [InvalidPriceError, 'VALIDATION_ERROR'],
  [SubmissionRefusedError, 'VALIDATION_ERROR'],
  [DuplicateSubmissionError, 'CONFLICT'],
  [QuoteNotFoundError, 'NOT_FOUND'],
  [withdrawal.UnknownChainError, 'VALIDATION_ERROR'],
  [withdrawal.UnknownTokenError, 'VALIDATION_ERROR'],
  [withdrawal.InsufficientLockedBalanceError, 'UNPROCESSABLE_CONTENT'],
  [InvalidConfigurationError, 'VALIDATION_ERROR'],
  [AccountTakenError, 'CONFLICT'],
]

/**
 * The {@link ApiError} a domain error answers with, or undefined when `error` is not one of
 * {@link DOMAIN_ERROR_CODES} (an unexpected failure: a 500).
 *
 * @example
 * toApiErrorOfDomain(new QuoteNotFoundError('42'))?.statusCode // 404
 */
export function toApiErrorOfDomain(error: unknown): ApiError | undefined {
  for (const [errorClass, code] of DOMAIN_ERROR_CODES)
    if (error instanceof errorClass) {
      // A refusal that names when to come back says it the HTTP way too.
      const headers =
        error instanceof quote.QuoteStoreFullError
          ? { 'retry-after': String(error.retryAfterSeconds) }
          : undefined
      return new ApiError(code, error.shortMessage, {
        data: error.data,
        cause: error,
        docsPath: error.docsPath,
        headers,
      })
    }
  return undefined
}
