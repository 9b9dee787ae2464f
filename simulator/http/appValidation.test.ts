import { describe, expect, test } from 'vitest'
import { AlpsErrorEnvelope, BlancErrorEnvelope } from '../../spec'
import { ALPS, BLANC, headers, REACHED, routeRequest, scrub } from './testing/fixtures'
import { useTestApp } from './testing/useTestApp'

const t = useTestApp()
const { route } = t

describe('validation', () => {
  test('each failing field is named by its path (alps: one entry per field)', async () => {
    const r = await route(ALPS, {
      destinationChainId: -1,
      tokenRequests: [{ tokenAddress: '0x12', amount: 15 }],
      account: { address: '0x1111111111111111111111111111111111111111' },
    })
    expect(r.status).toBe(400)
    expect(AlpsErrorEnvelope.safeParse(r.json).success).toBe(true)
    expect(r.json.errors.map((e: { message: string }) => e.message)).toMatchInlineSnapshot(`
      [
        "destinationChainId: must not be negative",
        "tokenRequests.0.tokenAddress: must be a 0x-prefixed 20-byte hex address",
        "tokenRequests.0.amount: Invalid input: expected string, received number",
      ]
    `)
  })

  test('blanc: one message naming every field, and details.issues', async () => {
    const r = await route(BLANC, { tokenRequests: [{ tokenAddress: '0x12', amount: '10' }] })
    expect(r.status).toBe(400)
    expect(BlancErrorEnvelope.safeParse(r.json).success).toBe(true)
    expect(scrub(r.json)).toMatchInlineSnapshot(`
      {
        "code": "VALIDATION_ERROR",
        "details": {
          "issues": [
            {
              "message": "Invalid input: expected number, received undefined or expected string, received undefined",
              "path": "destinationChainId",
            },
            {
              "message": "must be a 0x-prefixed 20-byte hex address",
              "path": "tokenRequests.0.tokenAddress",
            },
            {
              "message": "Invalid input: expected object, received undefined",
              "path": "account",
            },
          ],
        },
        "message": "Invalid request: destinationChainId: Invalid input: expected number, received undefined or expected string, received undefined; tokenRequests.0.tokenAddress: must be a 0x-prefixed 20-byte hex address; account: Invalid input: expected object, received undefined",
        "traceId": "<trace id>",
      }
    `)
  })

  test('unknown request fields are ignored', async () => {
    const body = {
      ...routeRequest(),
      someFutureField: { a: 1 },
      account: { ...(routeRequest().account as object), newFlag: true },
    }
    expect((await route(ALPS, body)).status).toBe(REACHED)
  })

  test('preClaimExecutions: 10 operations on a chain pass, 11 → 400 naming the limit', async () => {
    expect((await route(ALPS, routeRequest({ chains: 1, ops: 10 }))).status).toBe(REACHED)
    const r = await route(BLANC, routeRequest({ chains: 1, ops: 11 }))
    expect(r.status).toBe(400)
    expect(r.json.message).toMatchInlineSnapshot(
      `"Invalid request: preClaimExecutions.1: preClaimExecutions allows at most 10 operations per chain"`,
    )
    expect(r.json.message).toContain('at most 10 operations per chain')
  })

  test('preClaimExecutions: 5 chains pass, 6 → 400 naming the limit', async () => {
    expect((await route(ALPS, routeRequest({ chains: 5, ops: 10 }))).status).toBe(REACHED)
    const r = await route(ALPS, routeRequest({ chains: 6, ops: 1 }))
    expect(r.status).toBe(400)
    expect(r.json.errors).toMatchInlineSnapshot(`
      [
        {
          "context": {
            "code": "VALIDATION_ERROR",
            "path": "preClaimExecutions",
          },
          "message": "preClaimExecutions: preClaimExecutions allows at most 5 chains",
        },
      ]
    `)
    expect(r.json.errors[0].message).toContain('at most 5 chains')
  })

  test('malformed JSON → 400 VALIDATION_ERROR, never 5xx', async () => {
    for (const payload of ['{"destinationChainId":', 'null x', '{"__proto__":{"a":1}}']) {
      const r = await t.request({
        method: 'POST',
        url: '/intents/route',
        headers: { ...headers(BLANC), 'content-type': 'application/json' },
        payload,
      })
      expect(r.status, payload).toBe(400)
      expect(r.json.code).toBe('VALIDATION_ERROR')
    }
    const r = await t.request({
      method: 'POST',
      url: '/intents/route',
      headers: { ...headers(BLANC), 'content-type': 'application/json' },
      payload: '{bad',
    })
    expect(r.json.message).toMatchInlineSnapshot(
      `"The request body is not valid JSON: Body is not valid JSON but content-type is set to 'application/json'"`,
    )
  })

  test('an empty JSON body, no body at all, or another content type → 400', async () => {
    const empty = await t.request({
      method: 'POST',
      url: '/intents/route',
      headers: { ...headers(BLANC), 'content-type': 'application/json' },
      payload: '',
    })
    expect(empty.status).toBe(400)
    const none = await t.request({ method: 'POST', url: '/intents/route', headers: headers(BLANC) })
    expect([none.status, none.json.message]).toMatchInlineSnapshot(`
      [
        400,
        "Invalid request: body: Invalid input: expected object, received null",
      ]
    `)
    for (const type of ['text/plain', 'application/x-www-form-urlencoded', 'application/xml']) {
      const r = await t.request({
        method: 'POST',
        url: '/intents/route',
        headers: { ...headers(BLANC), 'content-type': type },
        payload: 'a=1',
      })
      expect(r.status, type).toBe(400)
      expect(r.json.code).toBe('VALIDATION_ERROR')
    }
  })

  test('input that makes a schema check throw still answers 400, not 500', async () => {
    const r = await route(ALPS, {
      ...routeRequest(),
      tokenRequests: [{ tokenAddress: '0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913', amount: 'x' }],
    })
    expect(r.status).toBe(400)
  })

  test('path parameters are validated: /intent-operation/{id} takes digits only', async () => {
    const r = await t.request({ method: 'GET', url: '/intent-operation/12ab', headers: headers(ALPS) })
    expect(r.status).toBe(400)
    expect(r.json.errors[0].message).toMatchInlineSnapshot(
      `"path.id: must be an intent operation id (digits only)"`,
    )
  })

  test('query strings are validated', async () => {
    const r = await t.request({
      method: 'GET',
      url: '/deposit-processor/deposits?limit=1000',
      headers: headers(BLANC),
    })
    expect(r.status).toBe(400)
    expect(r.json.message).toContain('query.limit')
  })
})

describe('body limit', () => {
  const small = useTestApp({ bodyLimit: 2048 })

  test('a body over the limit → 413 PAYLOAD_TOO_LARGE in the envelope; under it is validated', async () => {
    const big = routeRequest({ chains: 5, ops: 10 })
    expect(JSON.stringify(big).length).toBeGreaterThan(2048)
    const r = await small.request({
      method: 'POST',
      url: '/intents/route',
      headers: headers(BLANC),
      payload: big,
    })
    expect(r.status).toBe(413)
    expect(scrub(r.json)).toMatchInlineSnapshot(`
      {
        "code": "PAYLOAD_TOO_LARGE",
        "message": "The request body is larger than the service accepts.",
        "traceId": "<trace id>",
      }
    `)
    expect(
      (
        await small.request({
          method: 'POST',
          url: '/intents/route',
          headers: headers(BLANC),
          payload: routeRequest(),
        })
      ).status,
    ).toBe(REACHED)
  })
})
