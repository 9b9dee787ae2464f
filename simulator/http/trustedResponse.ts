import type { FastifySerializerCompiler } from 'fastify/types/schema'
import type { ZodType } from 'zod'

const trusted = new WeakSet<object>()

/**
 * Marks a response body as conforming to its route's response schema by construction: its type
 * is the schema's type (`satisfies`), and its producer's tests check real answers against the
 * schema (simulator/quoting/quoting.test.ts). Such a body is sent with `JSON.stringify` instead
 * of being validated again by zod on every request (most of a large quote's serialization).
 * Every other body is still validated, so a service answer that breaks its schema stays a 500.
 * Free of Fastify at run time: domain modules may call it.
 */
export function trustResponse<T extends object>(body: T): T {
  trusted.add(body)
  return body
}

/** Whether {@link trustResponse} marked `body`. */
export const isTrustedResponse = (body: unknown): boolean =>
  typeof body === 'object' && body !== null && trusted.has(body)

/**
 * Wraps a schema serializer compiler (fastify-type-provider-zod's): a body marked by
 * {@link trustResponse} is stringified as is; any other body goes through `compiler`'s serializer.
 */
export function trustingSerializerCompiler(
  compiler: FastifySerializerCompiler<ZodType>,
): FastifySerializerCompiler<ZodType> {
  return (routeSchema) => {
    const checked = compiler(routeSchema)
    return (data) => (isTrustedResponse(data) ? JSON.stringify(data) : checked(data))
  }
}
