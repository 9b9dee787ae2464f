import type { z } from 'zod'

/** What a schema made of one body: zod's safeParse result. */
type Parsed = ReturnType<z.ZodType['safeParse']>

/** Results by body, then by schema: a body (a parsed answer, never changed after) dies with its response. */
const results = new WeakMap<object, Map<z.ZodType, Parsed>>()

/**
 * zod's interpreted parse (`jitless`), for the runner's answers only: the same checks and
 * issues, without compiling a parser for each object schema on its first parse (zod's JIT:
 * `new Function` per schema, which a run of the packs pays for every schema and each of its
 * nested objects, then uses only a few dozen times). The runner's response checks, replayed
 * in-process on the bodies of one run (267 parses of 12 schemas): ~100 -> ~65 ms CPU
 * (BENCHMARKS.md, "Runner CPU, round 2"). refusedRequest.ts checks the scenarios' request bodies so too.
 */
export const INTERPRETED = { jitless: true } as const

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
  if (typeof body !== 'object' || body === null) return schema.safeParse(body, INTERPRETED)
  let bySchema = results.get(body)
  if (!bySchema) {
    bySchema = new Map()
    results.set(body, bySchema)
  }
  let parsed = bySchema.get(schema)
  if (!parsed) {
    parsed = schema.safeParse(body, INTERPRETED)
    bySchema.set(schema, parsed)
  }
  return parsed
}
