import type { FastifySerializerCompiler } from 'fastify/types/schema'
import { ResponseSerializationError, serializerCompiler } from 'fastify-type-provider-zod'
import { z } from 'zod'

/**
 * zod's parse context for the service's request and response checks: interpreted (`jitless`),
 * the same checks and issues, without zod compiling a parser (`new Function`) for each object
 * schema on its first parse. A process serves each route a few dozen times at most before it
 * ends (a conformance run: ~470 requests over ~40 schemas), and V8's code cache (bin/intent-devnet.js)
 * keeps the interpreted parser's bytecode from one run to the next but never a generated one.
 * Measured on the simulator child of all packs: BENCHMARKS.md, "HTTP layer CPU of the local target".
 * The runner checks the answers so too (conformance/runner/safeParseOnce.ts).
 */
export const INTERPRETED = { jitless: true } as const

/**
 * fastify-type-provider-zod's `serializerCompiler` with zod's interpreted parse
 * ({@link INTERPRETED}): the body is encoded by the route's response schema and sent as
 * `JSON.stringify` of zod's output; a body that breaks the schema throws the library's
 * `ResponseSerializationError` (so a 500), as there. A schema given in another form than a zod
 * type goes to the library's compiler.
 */
export const interpretedSerializerCompiler: FastifySerializerCompiler<z.ZodType> = (routeSchema) => {
  const { schema, method, url } = routeSchema
  if (!(schema instanceof z.core.$ZodType)) return serializerCompiler(routeSchema)
  return (data) => {
    const result = z.core.safeEncode(schema, data, INTERPRETED)
    if (!result.success) throw new ResponseSerializationError(method, url, { cause: result.error })
    return JSON.stringify(result.data)
  }
}
