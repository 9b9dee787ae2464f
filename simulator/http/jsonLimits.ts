import type { FastifyInstance } from 'fastify'
import { clientError } from './errorCodes'

/** Deepest nesting of objects and arrays a JSON body may have; signing and zod recurse over it. */
export const MAX_JSON_DEPTH = 32
/** Most values (objects, arrays, scalars) a JSON body may hold. */
export const MAX_JSON_NODES = 100_000

/** Where a JSON value breaks a limit: its path and which limit, or undefined when it keeps them. */
export type JsonLimitViolation = { path: string; message: string }

/** What {@link walk} found: the first value too deep (its keys, innermost first), or too many values. */
type Found = { keys: string[] } | 'too-many' | undefined

/**
 * Reports the first place in a parsed JSON value deeper than {@link MAX_JSON_DEPTH}, or the
 * value holding more than {@link MAX_JSON_NODES} values.
 *
 * A recursive walk, which the depth limit bounds (at most `maxDepth + 1` frames: a container at
 * the limit is reported, not entered). It visits the values in the order an explicit stack did
 * before it (each container's last member first), so the same violation is reported; it builds
 * no entry per value (the stack's entries were most of this check's CPU on the simulator's
 * every JSON body) and spells the path out only for a violation.
 *
 * @example
 * checkJsonLimits({ a: { b: 1 } }) // undefined
 */
export function checkJsonLimits(
  value: unknown,
  maxDepth = MAX_JSON_DEPTH,
  maxNodes = MAX_JSON_NODES,
): JsonLimitViolation | undefined {
  let nodes = 0
  const walk = (current: unknown, depth: number): Found => {
    if (++nodes > maxNodes) return 'too-many'
    if (typeof current !== 'object' || current === null) return undefined
    if (depth >= maxDepth) return { keys: [] }
    if (Array.isArray(current)) {
      for (let i = current.length - 1; i >= 0; i--) {
        const found = walk(current[i], depth + 1)
        if (found === 'too-many') return found
        if (found) {
          found.keys.push(String(i))
          return found
        }
      }
      return undefined
    }
    const keys = Object.keys(current)
    for (let i = keys.length - 1; i >= 0; i--) {
      const key = keys[i] as string
      const found = walk((current as Record<string, unknown>)[key], depth + 1)
      if (found === 'too-many') return found
      if (found) {
        found.keys.push(key)
        return found
      }
    }
    return undefined
  }
  const found = walk(value, 0)
  if (found === undefined) return undefined
  if (found === 'too-many')
    return { path: 'body', message: `Too big: the body holds more than ${maxNodes} JSON values` }
  const path = found.keys.reverse()
  const shown = path.slice(0, 6).join('.')
  return {
    path: shown + (path.length > 6 ? '…' : ''),
    message: `Too deep: nested more than ${maxDepth} levels (limit ${maxDepth})`,
  }
}

/**
 * Replaces the JSON body parser with Fastify's default (same prototype-poisoning protection)
 * followed by {@link checkJsonLimits}: a body too deep or too large is a 400 naming the field
 * before any schema or signing code, which recurse, sees it.
 */
export function limitJsonBodies(app: FastifyInstance): void {
  const parse = app.getDefaultJsonParser('error', 'error')
  app.removeContentTypeParser('application/json')
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    parse(request, body as string, (error, value) => {
      if (error) return done(error, undefined)
      const violation = checkJsonLimits(value)
      if (!violation) return done(null, value)
      const issue = { path: violation.path, message: violation.message }
      done(
        clientError('VALIDATION_ERROR', `Invalid request: ${issue.path}: ${issue.message}`, {
          data: { issues: [issue] },
        }),
        undefined,
      )
    })
  })
}
