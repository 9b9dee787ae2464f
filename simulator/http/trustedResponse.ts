import { isDeepStrictEqual } from 'node:util'
import type { FastifySerializerCompiler } from 'fastify/types/schema'
import type { ZodType } from 'zod'

const trusted = new WeakSet<object>()

/**
 * Marks a response body as conforming to its route's response schema by construction: its type
 * is the schema's type (the route's handler type), and every answer of it the tests produce is
 * checked ({@link VERIFY_TRUSTED_ENV}). Such a body is
 * sent with `JSON.stringify` instead of being validated again by zod on every request (on the
 * simulator a conformance run judges, the response checks were ~40 ms of its CPU, most of it
 * zod generating each schema's parser on first use in the fresh process; a large quote's
 * serialization was mostly that check). Every other body is still validated, so a service answer
 * that breaks its schema stays a 500. Free of Fastify at run time: domain modules may call it.
 */
export function trustResponse<T extends object>(body: T): T {
  trusted.add(body)
  return body
}

/** Whether {@link trustResponse} marked `body`. */
export const isTrustedResponse = (body: unknown): boolean =>
  typeof body === 'object' && body !== null && trusted.has(body)

/**
 * The environment variable that makes every app check its trusted answers too (vitest.config.ts
 * sets it for the whole suite, and the processes the tests start inherit it): each is validated
 * by the route's schema like any other and must hold what that validation sends (nothing
 * stripped, changed or added), or the request fails as a broken answer does (500); what is sent
 * is the body as built, as without the check. So the schema stays the one source of a trusted
 * route's answers, and the tests prove it for every answer they make; only a service outside the
 * tests sends them unchecked.
 */
export const VERIFY_TRUSTED_ENV = 'INTENT_DEVNET_VERIFY_TRUSTED_RESPONSES'

/** Thrown (so answered 500) when a trusted answer is not what its schema's serializer sends. */
export class TrustedResponseMismatch extends Error {
  override name = 'TrustedResponseMismatch'
}

/**
 * Wraps a schema serializer compiler (fastify-type-provider-zod's): a body marked by
 * {@link trustResponse} is stringified as is; any other body goes through `compiler`'s serializer.
 * With `verify` (default: {@link VERIFY_TRUSTED_ENV} set), a trusted body goes through it too and
 * must come out the same JSON (keys may come out in the schema's order: a body is sent as built).
 */
export function trustingSerializerCompiler(
  compiler: FastifySerializerCompiler<ZodType>,
  verify?: boolean,
): FastifySerializerCompiler<ZodType> {
  const verifying = verify ?? Boolean(process.env[VERIFY_TRUSTED_ENV])
  return (routeSchema) => {
    const checked = compiler(routeSchema)
    if (!verifying) return (data) => (isTrustedResponse(data) ? JSON.stringify(data) : checked(data))
    return (data) => {
      if (!isTrustedResponse(data)) return checked(data)
      const asBuilt = JSON.stringify(data)
      if (!isDeepStrictEqual(JSON.parse(checked(data)), JSON.parse(asBuilt)))
        throw new TrustedResponseMismatch(
          `The trusted answer of ${routeSchema.method} ${routeSchema.url} (${routeSchema.httpStatus}) is not what its schema sends: ${asBuilt} against ${checked(data)}.`,
        )
      return asBuilt
    }
  }
}
