import type { FastifyInstance } from 'fastify'
import { clientError } from './errorCodes'

/** Deepest nesting of objects and arrays a JSON body may have; signing and zod recurse over it. */
export const MAX_JSON_DEPTH = 32
/** Most values (objects, arrays, scalars) a JSON body may hold. */
export const MAX_JSON_NODES = 100_000

/** Where a JSON value breaks a limit: its path and which limit, or undefined when it keeps them. */
export type JsonLimitViolation = { path: string; message: string }

/**
 * Walks a parsed JSON value without recursion and reports the first place deeper than
 * {@link MAX_JSON_DEPTH} or the value holding more than {@link MAX_JSON_NODES} values.
 *
 * @example
 * checkJsonLimits({ a: { b: 1 } }) // undefined
 */
export function checkJsonLimits(
  value: unknown,
  maxDepth = MAX_JSON_DEPTH,
  maxNodes = MAX_JSON_NODES,
): JsonLimitViolation | undefined {
  // Each entry keeps its depth and a link to its parent; the path is spelled out only for a
  // violation (copying it at every value cost the simulator ~2% of its CPU over a packs run).
  type Entry = { value: unknown; depth: number; key: string; parent: Entry | undefined }
  const stack: Entry[] = [{ value, depth: 0, key: '', parent: undefined }]
  let nodes = 0
  while (stack.length > 0) {
    const entry = stack.pop() as Entry
    const current = entry.value
    if (++nodes > maxNodes)
      return { path: 'body', message: `Too big: the body holds more than ${maxNodes} JSON values` }
    if (typeof current !== 'object' || current === null) continue
    if (entry.depth >= maxDepth) {
      const path: string[] = []
      for (let at: Entry | undefined = entry; at?.parent; at = at.parent) path.unshift(at.key)
      const shown = path.slice(0, 6).join('.')
      return {
        path: shown + (path.length > 6 ? '…' : ''),
        message: `Too deep: nested more than ${maxDepth} levels (limit ${maxDepth})`,
      }
    }
    const depth = entry.depth + 1
    if (Array.isArray(current))
      for (let i = 0; i < current.length; i++)
        stack.push({ value: current[i], depth, key: String(i), parent: entry })
    else
      for (const key in current)
        if (Object.hasOwn(current, key))
          stack.push({ value: (current as Record<string, unknown>)[key], depth, key, parent: entry })
  }
  return undefined
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
