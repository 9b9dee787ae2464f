import { BaseError, type BaseErrorParameters } from '../../spec/BaseError'

/**
 * The one table of error codes the service answers with: code, HTTP status and meaning.
 * `docs/errors.md` documents the same table; `errorCodes.test.ts` keeps the two in step.
 *
 * Codes and statuses follow the public service (facts/public-reference.md, section 1), since
 * the spec does not give an error format ("Error body format and status codes ...: not shown").
 * Domain modules never throw {@link ApiError}: they throw their own error classes, which
 * `errorMapping.ts` maps onto this table.
 */
export const ERROR_CODES = {
  VALIDATION_ERROR: {
    status: 400,
    meaning: 'The request is malformed: a body field, a header or the JSON itself.',
  },
  UNAUTHORIZED: { status: 401, meaning: 'The `x-api-key` header is missing or not a known key.' },
  FORBIDDEN: { status: 403, meaning: 'The key is known but may not do this.' },
  KEY_SCOPE_DENIED: {
    status: 403,
    meaning: 'The key is known but its scope does not cover this endpoint or chain.',
  },
  NOT_FOUND: {
    status: 404,
    meaning:
      'No such resource (an expired or lost quote, an unknown intent), or a path the version does not serve.',
  },
  CONFLICT: {
    status: 409,
    meaning: 'The request conflicts with the current state (e.g. a quote already submitted).',
  },
  WITHDRAWAL_IN_PROGRESS: {
    status: 409,
    meaning: 'A withdrawal for the same account and lock is already in progress.',
  },
  REQUEST_TIMEOUT: {
    status: 408,
    meaning: 'The request (headers and body) did not arrive within the request timeout.',
  },
  PAYLOAD_TOO_LARGE: { status: 413, meaning: 'The body is larger than the service accepts.' },
  EXPECTATION_FAILED: {
    status: 417,
    meaning: 'The `Expect` header asks for something other than `100-continue`.',
  },
  UNPROCESSABLE_CONTENT: {
    status: 422,
    meaning: 'The request is well-formed but cannot be carried out as asked.',
  },
  INSUFFICIENT_LIQUIDITY: {
    status: 422,
    meaning: 'No route can fill the requested tokens with the available funds.',
  },
  SIMULATION_FAILED: { status: 422, meaning: 'Simulating the intent or its executions on chain failed.' },
  TOO_MANY_REQUESTS: { status: 429, meaning: 'Rate limit reached; retry after the `Retry-After` header.' },
  HEADERS_TOO_LARGE: { status: 431, meaning: 'The request headers are larger than the service accepts.' },
  INTERNAL_ERROR: {
    status: 500,
    meaning: 'An unexpected failure inside the service; the trace id identifies it.',
  },
  SETTLEMENT_QUOTE_ERROR: { status: 502, meaning: 'The settlement layer could not quote the route.' },
  SETTLEMENT_EXECUTION_ERROR: { status: 502, meaning: 'The settlement layer failed to execute the intent.' },
  RELAYER_MARKET_UNAVAILABLE: { status: 503, meaning: 'No relayer market is available to fill the intent.' },
  QUOTE_STORE_FULL: {
    status: 503,
    meaning:
      'The quote store reached its memory budget; no new quote until older ones expire (`Retry-After`). Live quotes still submit.',
  },
  EXTERNAL_SERVICE_TIMEOUT: {
    status: 504,
    meaning: 'A service the request depends on (e.g. a chain RPC) timed out.',
  },
} as const satisfies Record<string, { status: number; meaning: string }>

/** One of the codes of {@link ERROR_CODES}. */
export type ErrorCode = keyof typeof ERROR_CODES

/** Parameters of {@link ApiError}. */
export type ApiErrorParameters = BaseErrorParameters & {
  /** Structured facts about the failure; blanc puts them in `details`, alps in `errors[].context`. */
  data?: Record<string, unknown> | undefined
  /** Overrides the table's status (only for codes whose status the table leaves open). */
  status?: number | undefined
  /** Extra response headers (e.g. `Retry-After` for TOO_MANY_REQUESTS). */
  headers?: Record<string, string> | undefined
}

/**
 * An error the service answers to the caller with: a code of {@link ERROR_CODES}, its HTTP
 * status, a sentence for the caller and optional structured data. Only the HTTP layer throws it;
 * the HTTP layer turns it into the envelope of the request's API version.
 *
 * @example
 * throw new ApiError('NOT_FOUND', 'Quote 42 has expired or was never issued; request a new quote.')
 */
export class ApiError extends BaseError {
  override name = 'Http.ApiError'
  readonly code: ErrorCode
  readonly statusCode: number
  readonly headers: Record<string, string> | undefined

  constructor(code: ErrorCode, message: string, parameters: ApiErrorParameters = {}) {
    const { status, headers, ...base } = parameters
    super(message, base)
    this.code = code
    this.statusCode = status ?? ERROR_CODES[code].status
    this.headers = headers
  }
}

/**
 * Creates an {@link ApiError} for a caller's mistake (a 4xx) without capturing a stack trace:
 * the stack would describe our code, not the caller's request, and capturing it is the largest
 * single cost of a rejected request.
 *
 * @example
 * throw clientError('UNAUTHORIZED', 'The x-api-key header is missing.')
 */
export function clientError(code: ErrorCode, message: string, parameters: ApiErrorParameters = {}): ApiError {
  const limit = Error.stackTraceLimit
  Error.stackTraceLimit = 0
  try {
    return new ApiError(code, message, parameters)
  } finally {
    Error.stackTraceLimit = limit
  }
}
