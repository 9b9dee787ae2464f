import { ResponseSerializationError, serializerCompiler } from 'fastify-type-provider-zod'
import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import { INTERPRETED, interpretedSerializerCompiler } from './interpretedZod'
import { SERVER_ROUTES } from './serverRoutes'
import {
  batchWithdrawal,
  blancSubmit,
  execution,
  routeRequest,
  signedIntentOp,
  withdrawal,
} from './testing/fixtures'

const Answer = z.object({ id: z.string().regex(/^\d+$/), status: z.string(), at: z.number().optional() })
const route = { schema: Answer, method: 'GET', url: '/things/:id', httpStatus: '200' }
const interpreted = interpretedSerializerCompiler(route) as (data: unknown) => string
const compiled = serializerCompiler(route) as (data: unknown) => string

/** Every request schema of the route table, named by route and part. */
const requestSchemas = Object.entries(SERVER_ROUTES).flatMap(([id, r]) =>
  Object.entries((r as { request?: Record<string, z.ZodType> }).request ?? {}).map(
    ([part, schema]) => [`${id} ${part}`, schema] as const,
  ),
)

/** Inputs of every kind, mostly wrong: wrong types, missing and unknown fields, bad amounts. */
const inputs: unknown[] = [
  undefined,
  null,
  7,
  'text',
  [],
  {},
  { id: '12', extra: true },
  { id: 12 },
  { address: '0x12' },
  routeRequest(),
  routeRequest({ chains: 2, ops: 11 }),
  routeRequest({ chains: 7, ops: 1 }),
  { ...routeRequest(), tokenRequests: [{ tokenAddress: 'nope', amount: '-1' }] },
  { ...routeRequest(), destinationChainId: '8453', tokenRequests: [{ amount: 2 ** 60 }] },
  { executions: [execution, { to: 1 }], chainId: 'x' },
  signedIntentOp,
  blancSubmit,
  withdrawal,
  batchWithdrawal,
  { ...withdrawal, extra: [1, 2], amount: '-5' },
]

describe('interpreted zod', () => {
  it('validates a request as zod compiled does: the same data, the same issues', () => {
    expect(requestSchemas.length).toBeGreaterThan(10)
    let accepted = 0
    for (const [name, schema] of requestSchemas)
      for (const input of inputs) {
        const fast = schema.safeParse(structuredClone(input))
        const slow = schema.safeParse(structuredClone(input), INTERPRETED)
        expect({ name, success: slow.success }).toEqual({ name, success: fast.success })
        // Key order too: a service may send back what it was given.
        if (fast.success) expect(JSON.stringify(slow.data)).toBe(JSON.stringify(fast.data))
        else expect(slow.error?.issues).toEqual(fast.error.issues)
        if (fast.success) accepted++
      }
    // Accepted bodies too, not only refusals.
    expect(accepted).toBeGreaterThan(100)
  })

  it('serializes an answer as fastify-type-provider-zod does, and throws its error on a broken one', () => {
    const body = { status: 'PENDING', id: '7', extra: 1 }
    expect(interpreted(body)).toBe('{"id":"7","status":"PENDING"}')
    expect(interpreted(body)).toBe(compiled(body))
    expect(() => interpreted({ id: 'x', status: 'PENDING' })).toThrow(ResponseSerializationError)
    expect(() => interpreted({ id: 'x', status: 'PENDING' })).toThrow(
      (() => {
        try {
          compiled({ id: 'x', status: 'PENDING' })
        } catch (error) {
          return (error as Error).message
        }
      })(),
    )
  })
})
