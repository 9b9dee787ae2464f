import { serializerCompiler } from 'fastify-type-provider-zod'
import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import { TrustedResponseMismatch, trustingSerializerCompiler, trustResponse } from './trustedResponse'

const Answer = z.object({ id: z.string().regex(/^\d+$/), status: z.string() })
const route = { schema: Answer, method: 'GET', url: '/things/:id', httpStatus: '200' }
const serializerOf = (verify: boolean) =>
  trustingSerializerCompiler(serializerCompiler, verify)(route) as (data: unknown) => string

describe('trustingSerializerCompiler', () => {
  it('sends a trusted body as built, and checks any other one by its schema', () => {
    const send = serializerOf(false)
    expect(send(trustResponse({ status: 'PENDING', id: '7' }))).toBe('{"status":"PENDING","id":"7"}')
    // Not trusted: zod's answer (its key order, unknown keys stripped), a broken body throws.
    expect(send({ status: 'PENDING', id: '7', extra: 1 })).toBe('{"id":"7","status":"PENDING"}')
    expect(() => send({ id: 'x', status: 'PENDING' })).toThrow()
    // Trusted and unverified: not checked (the tests verify: below).
    expect(send(trustResponse({ id: 'x', status: 'PENDING' }))).toBe('{"id":"x","status":"PENDING"}')
  })

  it('verifying, a trusted body must be what its schema sends, and is still sent as built', () => {
    const send = serializerOf(true)
    expect(send(trustResponse({ status: 'PENDING', id: '7' }))).toBe('{"status":"PENDING","id":"7"}')
    expect(() => send(trustResponse({ id: 'x', status: 'PENDING' }))).toThrow()
    expect(() => send(trustResponse({ id: '7', status: 'PENDING', extra: 1 }))).toThrow(
      TrustedResponseMismatch,
    )
    expect(send({ status: 'PENDING', id: '7', extra: 1 })).toBe('{"id":"7","status":"PENDING"}')
  })

  it('verifies in the tests: vitest.config.ts sets INTENT_DEVNET_VERIFY_TRUSTED_RESPONSES', () => {
    const send = trustingSerializerCompiler(serializerCompiler)(route) as (data: unknown) => string
    expect(() => send(trustResponse({ id: '7', status: 'PENDING', extra: 1 }))).toThrow(
      TrustedResponseMismatch,
    )
  })
})
