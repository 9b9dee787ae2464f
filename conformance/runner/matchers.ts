import type { Matcher, StatusExpectation } from '../scenario/schema'

/** A value read at a path, or that there was none. */
export type PathRead = { found: boolean; value: unknown }

/** Reads a value by JSON pointer (`/errors/0/message`) or dotted path (`errors[0].message`). */
export function readPath(value: unknown, path: string): PathRead {
  const segments =
    path === '' || path === '/' || path === '$'
      ? []
      : path.startsWith('/')
        ? path
            .slice(1)
            .split('/')
            .map((s) => s.replaceAll('~1', '/').replaceAll('~0', '~'))
        : path
            .replace(/^\$\.?/, '')
            .replace(/\[(\d+)\]/g, '.$1')
            .split('.')
            .filter((s) => s !== '')
  let current = value
  for (const segment of segments) {
    if (Array.isArray(current) && /^\d+$/.test(segment) && Number(segment) < current.length) {
      current = current[Number(segment)]
    } else if (
      typeof current === 'object' &&
      current !== null &&
      !Array.isArray(current) &&
      Object.hasOwn(current, segment)
    ) {
      current = (current as Record<string, unknown>)[segment]
    } else return { found: false, value: undefined }
  }
  return { found: true, value: current }
}

/** The result of applying a matcher: `ok`, or why not. */
export type MatchResult = { ok: true } | { ok: false; message: string }

function typeOf(value: unknown): string {
  if (value === null) return 'null'
  if (Array.isArray(value)) return 'array'
  return typeof value
}

/** Deep equality of JSON values. */
export function jsonEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true
  if (typeof a !== typeof b || a === null || b === null || typeof a !== 'object') return false
  if (Array.isArray(a) !== Array.isArray(b)) return false
  const ka = Object.keys(a as object)
  const kb = Object.keys(b as object)
  return (
    ka.length === kb.length &&
    ka.every((k) => jsonEqual((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k]))
  )
}

/**
 * Applies a matcher to a value that was or was not found. Every condition of the matcher must
 * hold.
 *
 * @example
 * applyMatcher({ found: true, value: 'VALIDATION_ERROR' }, { equals: 'VALIDATION_ERROR' }) // { ok: true }
 */
export function applyMatcher(
  read: PathRead,
  matcher: Matcher,
  options: { ignoreCase?: boolean } = {},
): MatchResult {
  const { found, value } = read
  if (matcher.absent === true || matcher.exists === false)
    return found && value !== undefined ? { ok: false, message: 'is present' } : { ok: true }
  if (!found) return { ok: false, message: 'is missing' }
  if (matcher.type !== undefined) {
    const actual = typeOf(value)
    const ok = matcher.type === 'integer' ? Number.isInteger(value) : actual === matcher.type
    if (!ok) return { ok: false, message: `is of type ${actual}, not ${matcher.type}` }
  }
  if (matcher.equals !== undefined && !jsonEqual(value, matcher.equals))
    return { ok: false, message: `is ${JSON.stringify(value)}, not ${JSON.stringify(matcher.equals)}` }
  if (matcher.oneOf !== undefined && !matcher.oneOf.some((candidate) => jsonEqual(value, candidate)))
    return { ok: false, message: `is ${JSON.stringify(value)}, not one of ${JSON.stringify(matcher.oneOf)}` }
  if (matcher.matches !== undefined) {
    const text = typeof value === 'string' ? value : JSON.stringify(value)
    if (!new RegExp(matcher.matches, options.ignoreCase ? 'i' : '').test(text))
      return {
        ok: false,
        message: `${JSON.stringify(text).slice(0, 200)} does not match /${matcher.matches}/`,
      }
  }
  return { ok: true }
}

function statusMatches(status: number, code: number | string): boolean {
  return typeof code === 'number' ? status === code : Math.floor(status / 100) === Number(code[0])
}

/** Whether an HTTP status satisfies a status expectation. */
export function matchStatus(status: number, expectation: StatusExpectation): boolean {
  if (typeof expectation === 'number' || typeof expectation === 'string')
    return statusMatches(status, expectation)
  if (Array.isArray(expectation)) return expectation.some((code) => statusMatches(status, code))
  const not = Array.isArray(expectation.not) ? expectation.not : [expectation.not]
  return !not.some((code) => statusMatches(status, code))
}

/**
 * Whether an expectation names this exact status code (`404`, or `[200, 404]`), as opposed to a
 * class (`4xx`) or `{not: …}` that merely lets it through.
 *
 * @example
 * namesStatus(404, [200, 404]) // true
 * namesStatus(404, '4xx') // false
 */
export function namesStatus(status: number, expectation: StatusExpectation | undefined): boolean {
  if (typeof expectation === 'number') return expectation === status
  return Array.isArray(expectation) && expectation.includes(status)
}

/**
 * Statuses that say the route itself is missing (404, 405, 501): never acceptance, never a
 * refusal about a rule, unless a step expects that very code (a 404 for an expired quote).
 */
export const MISSING_ROUTE_STATUSES: readonly number[] = [404, 405, 501]
