import type { ApiVersion } from '../../spec'
import type { ApiError } from './errorCodes'

/** One failing field of a request, as the validation error lists it. */
export type ValidationIssue = { path: string; message: string }

/**
 * The error body of an API version (facts/public-reference.md §1, since the spec does not give one):
 * alps `{errors:[{message, context}], traceId}`, blanc `{code, message, traceId, details}`.
 * A validation error lists each failing field: one alps `errors[]` entry per field, and blanc
 * `details.issues`.
 */
export function toEnvelope(version: ApiVersion, error: ApiError, traceId: string): Record<string, unknown> {
  if (version === '2026-04.blanc') {
    const body: Record<string, unknown> = { code: error.code, message: error.shortMessage, traceId }
    if (error.data !== undefined) body.details = error.data
    return body
  }
  const issues = error.data?.issues as ValidationIssue[] | undefined
  const errors =
    issues && issues.length > 0
      ? issues.map((issue) => ({
          message: `${issue.path}: ${issue.message}`,
          context: { code: error.code, path: issue.path },
        }))
      : [{ message: error.shortMessage, context: { code: error.code, ...error.data } }]
  return { errors, traceId }
}
