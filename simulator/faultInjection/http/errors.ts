import type { FastifyError } from 'fastify'
import { toEnvelope } from '../../http/envelope'
import { ApiError } from '../../http/errorCodes'
import type { ErrorPolicy } from '../../http/plugins/errors'
import type { Has } from './types'

/**
 * The `errors.*` faults of error answers, around the errors plugin's policy: bad JSON and an
 * oversized body answer 500 (`errors.5xx-on-malformed-json`, `errors.5xx-on-oversized-body`), and
 * the envelope is the blanc one for alps (`errors.alps-as-blanc`), names another trace id
 * (`errors.trace-id-mismatch`) or lacks the blanc `code` (`errors.omit-code`). Only errors pass
 * here. (`errors.no-trace-id` drops a header: a hook of the plugin, httpFaults.ts.)
 *
 * @example
 * bendErrors(app.errorPolicy, faults)
 */
export function bendErrors(policy: ErrorPolicy, faults: Has): void {
  const { toApiError, envelope } = policy
  policy.toApiError = (error) => {
    switch ((error as Partial<FastifyError>).code) {
      case 'FST_ERR_CTP_INVALID_JSON_BODY':
      case 'FST_ERR_CTP_EMPTY_JSON_BODY':
        if (faults.has('errors.5xx-on-malformed-json'))
          return new ApiError('INTERNAL_ERROR', 'Internal error.')
        break
      case 'FST_ERR_CTP_BODY_TOO_LARGE':
        if (faults.has('errors.5xx-on-oversized-body'))
          return new ApiError('INTERNAL_ERROR', 'Internal error.')
        break
    }
    return toApiError(error)
  }
  policy.envelope = (request, error) => {
    let body = envelope(request, error)
    // The alps envelope is the one with `errors`; blanc has `code` at its top.
    if (faults.has('errors.alps-as-blanc') && 'errors' in body)
      body = toEnvelope('2026-04.blanc', error, String(body.traceId))
    if (faults.has('errors.trace-id-mismatch')) body.traceId = `${request.id}-other`
    if (faults.has('errors.omit-code')) delete body.code
    return body
  }
}
