import type { FastifyRequest, preHandlerHookHandler } from 'fastify'
import type { z } from 'zod'
import { MAX_UINT256 } from '../../../spec'
import { ApiError } from '../../http/errorCodes'
import { type ValidationPolicy, validationError } from '../../http/validation'
import type { Has } from './types'

type Issue = z.core.$ZodIssue

/** preClaimExecutions.<chain> has more operations than allowed. */
const isOpsLimit = (issue: Issue) =>
  issue.code === 'too_big' && issue.path.length === 2 && issue.path[0] === 'preClaimExecutions'
/** preClaimExecutions names more chains than allowed. */
const isChainsLimit = (issue: Issue) =>
  issue.code === 'custom' && issue.path.length === 1 && issue.path[0] === 'preClaimExecutions'

/** The value at an issue's path in the data as sent. */
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

/** An amount issue a fault lets through: `input.accept-negative-amount`, `input.accept-over-uint256`. */
function isFaultyAmount(faults: Has, issue: Issue, data: unknown): boolean {
  if (issue.path[issue.path.length - 1] !== 'amount') return false
  const value = valueAt(data, issue.path)
  return (
    (faults.has('input.accept-negative-amount') && isNegative(value)) ||
    (faults.has('input.accept-over-uint256') && isOverUint256(value))
  )
}

/** A field of the wrong type: every form it may take expected another type. */
const isWrongType = (issue: Issue): boolean =>
  issue.code === 'invalid_type' ||
  (issue.code === 'invalid_union' && issue.errors.every((branch) => branch.some(isWrongType)))

/**
 * The `input.*` and `limits.accept-*` faults, around the validator's policy (asked only when a
 * part fails its schema): a wrong type answers 500 (`input.5xx-on-wrong-types`); in a body, a
 * negative or over-uint256 amount (`input.accept-negative-amount`, `input.accept-over-uint256`)
 * and too many operations on a chain or too many chains (`limits.accept-11-ops`,
 * `limits.accept-6-chains`) do not stand, and a body left without issues is taken as sent.
 *
 * @example
 * bendValidation(app.validationPolicy, faults)
 */
export function bendValidation(policy: ValidationPolicy, faults: Has): void {
  const { standing } = policy
  policy.standing = (failure) => {
    const kept = standing(failure)
    if (kept instanceof ApiError) return kept
    if (faults.has('input.5xx-on-wrong-types') && kept.some(isWrongType))
      return new ApiError('INTERNAL_ERROR', 'Internal error.')
    if (failure.httpPart !== 'body') return kept
    const acceptOps = faults.has('limits.accept-11-ops')
    const acceptChains = faults.has('limits.accept-6-chains')
    const acceptAmounts =
      faults.has('input.accept-negative-amount') || faults.has('input.accept-over-uint256')
    if (!acceptOps && !acceptChains && !acceptAmounts) return kept
    return kept.filter(
      (issue) =>
        !(
          (acceptAmounts && isFaultyAmount(faults, issue, failure.data)) ||
          (acceptOps && isOpsLimit(issue)) ||
          (acceptChains && isChainsLimit(issue))
        ),
    )
  }
}

/** The chain of a body's preClaimExecutions that has exactly 10 operations. */
function chainWithTenOps(body: unknown): string | undefined {
  const executions = valueAt(body, ['preClaimExecutions'])
  if (typeof executions !== 'object' || executions === null) return undefined
  return Object.entries(executions).find(([, ops]) => Array.isArray(ops) && ops.length === 10)?.[0]
}

/**
 * `limits.refuse-10-ops`, a preHandler of the routes with a body: a body that passed its schema
 * with exactly 10 operations on a chain is refused as if the bound were exclusive.
 */
export function refuseTenOps(faults: Has): preHandlerHookHandler {
  return (request: FastifyRequest, _reply, done) => {
    const chain = faults.has('limits.refuse-10-ops') ? chainWithTenOps(request.body) : undefined
    if (chain === undefined) return done()
    done(
      validationError([
        { path: `preClaimExecutions.${chain}`, message: 'Too big: expected array to have <10 items' },
      ]),
    )
  }
}
