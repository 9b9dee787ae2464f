import type { FastifySchemaCompiler } from 'fastify'
import { z } from 'zod'
import { MAX_UINT256 } from '../../spec'
import type { Faults } from '../faults/faults'
import type { ValidationIssue } from './envelope'
import { ApiError, clientError } from './errorCodes'

const partNames: Record<string, string> = {
  body: 'body',
  params: 'path',
  querystring: 'query',
  headers: 'headers',
}

/** "Invalid input" says nothing: name what each accepted form expected instead. */
function unionMessage(issue: z.core.$ZodIssueInvalidUnion): string {
  const branches = [
    ...new Set(issue.errors.map((branch) => branch[0]?.message.replace(/^Invalid input: /, ''))),
  ]
  const named = branches.filter((message): message is string => message !== undefined)
  return named.length > 0 ? `Invalid input: ${named.join(' or ')}` : issue.message
}

/** Turns zod issues into one line per failing field, named by its path (`tokenRequests.0.amount`). */
export function toValidationIssues(issues: readonly z.core.$ZodIssue[], httpPart: string): ValidationIssue[] {
  const part = partNames[httpPart] ?? httpPart
  return issues.map((issue) => {
    const path = issue.path.map(String).join('.')
    return {
      path: httpPart === 'body' ? path || 'body' : path ? `${part}.${path}` : part,
      message: issue.code === 'invalid_union' ? unionMessage(issue) : issue.message,
    }
  })
}

/** The 400 a request that fails its schema answers with; the message names every failing field. */
export function validationError(issues: ValidationIssue[]): ApiError {
  const lines = issues.map((issue) => `${issue.path}: ${issue.message}`)
  return clientError('VALIDATION_ERROR', `Invalid request: ${lines.join('; ')}`, { data: { issues } })
}

/** preClaimExecutions.<chain> has more operations than allowed. */
const isOpsLimit = (issue: z.core.$ZodIssue) =>
  issue.code === 'too_big' && issue.path.length === 2 && issue.path[0] === 'preClaimExecutions'
/** preClaimExecutions names more chains than allowed. */
const isChainsLimit = (issue: z.core.$ZodIssue) =>
  issue.code === 'custom' && issue.path.length === 1 && issue.path[0] === 'preClaimExecutions'

/** The value at an issue's path in the parsed data. */
function valueAt(data: unknown, path: readonly PropertyKey[]): unknown {
  let value = data
  for (const key of path) {
    if (typeof value !== 'object' || value === null) return undefined
    value = (value as Record<PropertyKey, unknown>)[key]
  }
  return value
}

const isNegative = (value: unknown) =>
  (typeof value === 'number' && value < 0) || (typeof value === 'string' && /^-\d+$/.test(value))
const isOverUint256 = (value: unknown) =>
  (typeof value === 'number' && value > Number.MAX_SAFE_INTEGER && Number.isFinite(value)
    ? BigInt(value) > MAX_UINT256
    : false) ||
  (typeof value === 'string' && /^\d+$/.test(value) && BigInt(value) > MAX_UINT256)

/** A fault lets an amount issue through: `input.accept-negative-amount`, `input.accept-over-uint256`. */
function isFaultyAmount(faults: Faults, issue: z.core.$ZodIssue, data: unknown): boolean {
  if (issue.path[issue.path.length - 1] !== 'amount') return false
  const value = valueAt(data, issue.path)
  return (
    (faults.has('input.accept-negative-amount') && isNegative(value)) ||
    (faults.has('input.accept-over-uint256') && isOverUint256(value))
  )
}

/** A field of the wrong type: every form it may take expected another type (fault `input.5xx-on-wrong-types`). */
const isWrongType = (issue: z.core.$ZodIssue): boolean =>
  issue.code === 'invalid_type' ||
  (issue.code === 'invalid_union' && issue.errors.every((branch) => branch.some(isWrongType)))

/** Fault `limits.refuse-10-ops`: the chain of preClaimExecutions that has exactly 10 operations. */
function chainWithTenOps(data: unknown): string | undefined {
  const executions = valueAt(data, ['preClaimExecutions'])
  if (typeof executions !== 'object' || executions === null) return undefined
  return Object.entries(executions).find(([, ops]) => Array.isArray(ops) && ops.length === 10)?.[0]
}

/** What a failed parse carries here: only the issues (a plain holder, not an Error). */
class ParseIssues {
  constructor(readonly issues: z.core.$ZodIssue[]) {}
}

/**
 * `schema.safeParse`, except that a failure holds its finalized issues in a plain object instead
 * of a `ZodError`: the issues (paths, messages) are the same, but no Error is constructed, which
 * was the largest part of rejecting a request.
 */
// A narrowing cast, not a double one: zod declares the failure class as building a ZodError, and
// every ZodError is a ParseIssues; ours builds only the holder that is read back below.
const safeParseIssues = z.core._safeParse(ParseIssues as z.core.$ZodErrorClass) as (
  schema: z.ZodType,
  value: unknown,
) => { success: true; data: unknown } | { success: false; error: ParseIssues }

/**
 * The validator compiler: zod parses each part (unknown fields of objects are stripped, so
 * ignored), and a failure becomes an {@link ApiError} VALIDATION_ERROR listing every failing
 * field. The `limits.*` faults drop the preClaimExecutions limits; a body that then has no
 * issue left is taken as sent.
 */
export function createValidatorCompiler(faults: Faults): FastifySchemaCompiler<z.ZodType> {
  return ({ schema, httpPart }) =>
    (data) => {
      let result: ReturnType<typeof safeParseIssues>
      try {
        result = safeParseIssues(schema, data)
      } catch (error) {
        // A schema check that throws on odd input is a schema bug, but the input is still what
        // is wrong here: answer 400, never 500, and keep the cause for the log.
        return {
          error: clientError(
            'VALIDATION_ERROR',
            `Invalid request: the ${partNames[httpPart ?? 'body'] ?? httpPart} could not be validated (${(error as Error).message}).`,
            { cause: error },
          ),
        }
      }
      if (result.success) {
        const chain =
          httpPart === 'body' && faults.has('limits.refuse-10-ops') ? chainWithTenOps(data) : undefined
        if (chain !== undefined)
          return {
            error: validationError([
              { path: `preClaimExecutions.${chain}`, message: 'Too big: expected array to have <10 items' },
            ]),
          }
        return { value: result.data }
      }
      let issues = result.error.issues
      if (faults.has('input.5xx-on-wrong-types') && issues.some(isWrongType))
        return { error: new ApiError('INTERNAL_ERROR', 'Internal error.') }
      if (httpPart === 'body') {
        if (faults.has('input.accept-negative-amount') || faults.has('input.accept-over-uint256')) {
          issues = issues.filter((issue) => !isFaultyAmount(faults, issue, data))
          if (issues.length === 0) return { value: data }
        }
        const acceptOps = faults.has('limits.accept-11-ops')
        const acceptChains = faults.has('limits.accept-6-chains')
        if (acceptOps || acceptChains) {
          issues = issues.filter(
            (issue) => !((acceptOps && isOpsLimit(issue)) || (acceptChains && isChainsLimit(issue))),
          )
          if (issues.length === 0) return { value: data }
        }
      }
      return { error: validationError(toValidationIssues(issues, httpPart ?? 'body')) }
    }
}
