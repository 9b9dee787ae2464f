import type { z } from 'zod'

/** What a schema made of one body: zod's safeParse result. */
type Parsed = ReturnType<z.ZodType['safeParse']>

/** Results by body, then by schema: a body (a parsed answer, never changed after) dies with its response. */
const results = new WeakMap<object, Map<z.ZodType, Parsed>>()

/**
 * `schema.safeParse(body)`, once per answer body and schema: a step's own `schema:` or `envelope:`
 * check and the automatic route check (responseChecks.ts) validate the same parsed answer
 * against the same spec schema, and an `anyOf` validates it once per alternative. A body that is
 * not an object (a scalar, no JSON) is parsed every time. The runner never changes a parsed
 * answer, so the result of the first parse is the result of every later one.
 *
 * @example
 * const parsed = safeParseOnce(specSchemas.BlancRouteResponse.schema, response.json)
 */
export function safeParseOnce(schema: z.ZodType, body: unknown): Parsed {
  if (typeof body !== 'object' || body === null) return schema.safeParse(body)
  let bySchema = results.get(body)
  if (!bySchema) {
    bySchema = new Map()
    results.set(body, bySchema)
  }
  let parsed = bySchema.get(schema)
  if (!parsed) {
    parsed = schema.safeParse(body)
    bySchema.set(schema, parsed)
  }
  return parsed
}
