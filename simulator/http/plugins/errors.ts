import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify'
import fp from 'fastify-plugin'
import { toEnvelope } from '../envelope'
import { ApiError, ERROR_CODES, type ErrorCode } from '../errorCodes'
import { toApiErrorOfDomain } from '../errorMapping'
import { drainRefusedBody, lingerAfterAnswer } from '../refusedBody'
import { TRACE_ID_HEADER } from './traceId'
import { VERSION_HEADER } from './versioning'

const codeByStatus = new Map<number, ErrorCode>()
for (const [code, { status }] of Object.entries(ERROR_CODES))
  if (!codeByStatus.has(status)) codeByStatus.set(status, code as ErrorCode)

/**
 * Maps anything thrown while serving a request to an {@link ApiError}. Fastify's own request
 * errors (bad JSON, body too large, unsupported content type, ...) stay 4xx; anything else is
 * a 500 INTERNAL_ERROR whose text does not leak.
 */
export function toApiError(error: unknown): ApiError {
  if (error instanceof ApiError) return error
  const domain = toApiErrorOfDomain(error)
  if (domain) return domain
  const fastifyError = error as Partial<FastifyError>
  switch (fastifyError.code) {
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return new ApiError('PAYLOAD_TOO_LARGE', 'The request body is larger than the service accepts.')
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      return new ApiError('VALIDATION_ERROR', `The request body is not valid JSON: ${fastifyError.message}`)
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
    case 'FST_ERR_CTP_INVALID_CONTENT_LENGTH':
      return new ApiError(
        'VALIDATION_ERROR',
        `Unsupported request: ${fastifyError.message}. Send the body as application/json.`,
      )
  }
  const status = fastifyError.statusCode
  if (typeof status === 'number' && status >= 400 && status < 500)
    return new ApiError(
      codeByStatus.get(status) ?? 'VALIDATION_ERROR',
      fastifyError.message ?? 'Bad request.',
      {
        status: codeByStatus.has(status) ? status : 400,
      },
    )
  return new ApiError('INTERNAL_ERROR', 'Internal error; the trace id identifies it in the service log.', {
    cause: error,
  })
}

/**
 * Logs a 5xx with its trace id: through the request logger, and on stderr when request logging
 * is off, so the trace id an error body points to is always in the service log.
 */
export function logServerError(request: FastifyRequest, error: unknown): void {
  request.log.error({ err: error, traceId: request.id }, 'request failed')
  if (request.server.httpConfig.logger) return
  const err = error as Partial<Error> | undefined
  process.stderr.write(
    `${JSON.stringify({ level: 'error', time: Date.now(), traceId: request.id, method: request.method, url: request.url, msg: 'request failed', err: { name: err?.name, message: err?.message, stack: err?.stack } })}\n`,
  )
}

/**
 * Fastify's `frameworkErrors`: a URL that is not validly percent-encoded (FST_ERR_BAD_URL) or a
 * path parameter over the length limit answers 400 in the envelope, not Fastify's own body.
 */
export function frameworkErrors(error: FastifyError, request: FastifyRequest, reply: FastifyReply): void {
  const message =
    error.code === 'FST_ERR_BAD_URL'
      ? `The URL is not validly percent-encoded: ${request.url.split('?')[0]}.`
      : error.code === 'FST_ERR_MAX_PARAM_LENGTH'
        ? 'A path parameter is longer than 100 characters.'
        : `Bad request: ${error.message}`
  reply.header(TRACE_ID_HEADER, request.id)
  sendApiError(request, reply, new ApiError('VALIDATION_ERROR', message))
}

/**
 * The errors plugin's extension point (the app decoration `errorPolicy`), on the error path only:
 * the {@link ApiError} anything thrown answers as (default {@link toApiError}), and the body an
 * ApiError is sent with (default: the envelope of the request's version, its trace id). A plugin
 * registered after errors may wrap either (the composition root's fault plugin does).
 */
export type ErrorPolicy = {
  toApiError(error: unknown): ApiError
  envelope(request: FastifyRequest, error: ApiError): Record<string, unknown>
}

declare module 'fastify' {
  interface FastifyInstance {
    /** What an error answers as, and with which body: see {@link ErrorPolicy}. */
    errorPolicy: ErrorPolicy
  }
}

/** The default envelope: the request's version, resolved from the header again (the error may have been raised before the versioning hook ran). */
const envelopeOfRequest = (request: FastifyRequest, error: ApiError) =>
  toEnvelope(request.server.versionPolicy.resolve(request.headers[VERSION_HEADER]).version, error, request.id)

/** Sends an {@link ApiError} in the envelope of the request's version ({@link ErrorPolicy}). */
export function sendApiError(request: FastifyRequest, reply: FastifyReply, error: ApiError): FastifyReply {
  if (error.headers) reply.headers(error.headers)
  return reply
    .code(error.statusCode)
    .type('application/json; charset=utf-8')
    .send(request.server.errorPolicy.envelope(request, error))
}

/**
 * Errors: one error handler and one not-found handler for the whole app; every error answers
 * in the envelope of the request's version, never a 5xx for bad input.
 */
export const errors = fp(
  async (app) => {
    const policy: ErrorPolicy = { toApiError, envelope: envelopeOfRequest }
    app.decorate('errorPolicy', policy)
    app.setErrorHandler((error, request, reply) => {
      const apiError = policy.toApiError(error)
      // A full quote store is a refusal the service means, not a failure to investigate.
      if (apiError.statusCode >= 500 && apiError.code !== 'QUOTE_STORE_FULL') logServerError(request, error)
      // Over the body limit: read (and discard) the rest before answering, so a client still
      // sending reads the 413 instead of a reset; then the connection may even stay open.
      if ((error as Partial<FastifyError>).code === 'FST_ERR_CTP_BODY_TOO_LARGE')
        return drainRefusedBody(request.raw).then((whole) => {
          if (whole) reply.removeHeader('connection')
          else lingerAfterAnswer(request.raw.socket)
          sendApiError(request, reply, apiError)
        })
      return sendApiError(request, reply, apiError)
    })
    app.setNotFoundHandler((request, reply) =>
      sendApiError(
        request,
        reply,
        new ApiError('NOT_FOUND', `No route ${request.method} ${request.url.split('?')[0]}.`),
      ),
    )
  },
  { name: 'errors', dependencies: ['traceId'] },
)
