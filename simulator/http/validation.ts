import type { FastifySchemaCompiler } from 'fastify'
import { z } from 'zod'
import type { ValidationIssue } from './envelope'
import { ApiError, clientError } from './errorCodes'
import { INTERPRETED } from './interpretedZod'

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
  ctx: z.core.ParseContext<z.core.$ZodIssue>,
) => { success: true; data: unknown } | { success: false; error: ParseIssues }

/** A part of a request that failed its schema: the part, the data as sent, and zod's issues. */
export type ValidationFailure = {
  httpPart: string
  data: unknown
  issues: readonly z.core.$ZodIssue[]
}

/**
 * The validator's extension point (the app decoration `validationPolicy`), asked only when a part
 * fails its schema: the issues that stand (none left: the part is taken as sent), or the error to
 * answer instead. The default lets every issue stand; a plugin may wrap `standing` (the
 * composition root's fault plugin does).
 */
export type ValidationPolicy = {
  standing(failure: ValidationFailure): readonly z.core.$ZodIssue[] | ApiError
}

declare module 'fastify' {
  interface FastifyInstance {
    /** Which issues of a failed schema stand: see {@link ValidationPolicy}. */
    validationPolicy: ValidationPolicy
  }
}

/** A {@link ValidationPolicy} that lets every issue stand. */
export const createValidationPolicy = (): ValidationPolicy => ({ standing: (failure) => failure.issues })

/**
 * The validator compiler: zod parses each part (unknown fields of objects are stripped, so
 * ignored; interpreted: {@link INTERPRETED}), and a failure becomes an {@link ApiError} VALIDATION_ERROR listing every failing
 * field that {@link ValidationPolicy} lets stand.
 */
export function createValidatorCompiler(policy: ValidationPolicy): FastifySchemaCompiler<z.ZodType> {
  return ({ schema, httpPart }) =>
    (data) => {
      let result: ReturnType<typeof safeParseIssues>
      try {
        result = safeParseIssues(schema, data, INTERPRETED)
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
      if (result.success) return { value: result.data }
      const part = httpPart ?? 'body'
      const standing = policy.standing({ httpPart: part, data, issues: result.error.issues })
      if (standing instanceof ApiError) return { error: standing }
      if (standing.length === 0) return { value: data }
      return { error: validationError(toValidationIssues(standing, part)) }
    }
}
