import { describe, expect, test } from 'vitest'
import { AlpsErrorEnvelope, AlpsRouteResponse, BlancErrorEnvelope, BlancRouteResponse } from '../../spec'
import type { QuoteResult } from '../quoting/quote'
import {
  ALPS,
  BLANC,
  batchWithdrawal,
  blancSubmit,
  headers,
  REACHED,
  routeRequest,
  scrub,
  signedIntentOp,
  testApp,
  withdrawal,
} from './testing/fixtures'
import { useTestApp } from './testing/useTestApp'
import { toAlpsRoute } from './versions/toAlpsRoute'

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
    // A route whose body is optional takes a POST without one (the stub service is reached).
    const resend = await t.request({
      method: 'POST',
      url: '/deposit-processor/webhooks/events/resend-failed',
      headers: headers(BLANC),
    })
    expect([resend.status, resend.json.message]).toEqual([
      422,
      'Test stub: depositProcessor.resendFailedWebhookEvents was reached.',
    ])
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

describe('every endpoint is routed: a valid request reaches its service', () => {
  const cases: [method: 'GET' | 'POST', url: string, version: string, payload?: object][] = [
    ['POST', '/intents/route', ALPS, routeRequest()],
    ['POST', '/intents/route', BLANC, routeRequest()],
    ['POST', '/quotes', BLANC, routeRequest()],
    ['POST', '/intent-operations', ALPS, signedIntentOp],
    ['POST', '/intents/0xabc/submit', BLANC, blancSubmit],
    ['POST', '/intents', BLANC, { intentId: '0xabc', ...blancSubmit }],
    ['GET', '/intent-operation/123', ALPS],
    ['GET', '/intents/0xabc', BLANC],
    ['POST', '/withdrawals', ALPS, withdrawal],
    ['POST', '/withdrawals', BLANC, withdrawal],
    ['POST', '/batch-withdrawals', ALPS, batchWithdrawal],
    ['POST', '/batch-withdrawals', BLANC, batchWithdrawal],
    [
      'POST',
      '/deposit-processor/setup',
      BLANC,
      { params: { webhookUrl: 'https://example.com/hook', maxPriceDeviationBps: null } },
    ],
    ['GET', '/deposit-processor/setup', ALPS],
    [
      'POST',
      '/deposit-processor/register',
      BLANC,
      { account: '0x1111111111111111111111111111111111111111', targetChainId: 8453 },
    ],
    ['GET', '/deposit-processor/deposits?limit=10', BLANC],
    ['GET', '/deposit-processor/deposits/d1', BLANC],
    ['GET', '/deposit-processor/webhooks/events', BLANC],
    ['POST', '/deposit-processor/webhooks/events/e1/resend', BLANC, {}],
    ['GET', '/_devnet/manifest', ALPS],
    ['POST', '/_devnet/clock/advance', ALPS, { seconds: 60 }],
    ['POST', '/_devnet/quotes/reset', ALPS, {}],
    ['POST', '/_devnet/snapshot', ALPS, {}],
    ['POST', '/_devnet/revert', ALPS, { id: '0x1' }],
    ['POST', '/_devnet/prices', ALPS, { prices: { USDC: 1 } }],
  ]
  test.each(cases)('%s %s (%s)', async (method, url, version, payload) => {
    const r = await t.request({ method, url, headers: headers(version), ...(payload ? { payload } : {}) })
    expect(r.status).toBe(REACHED)
    if (version === BLANC) {
      expect(BlancErrorEnvelope.safeParse(r.json).success).toBe(true)
      expect(r.json.code).toBe('UNPROCESSABLE_CONTENT')
    } else {
      expect(AlpsErrorEnvelope.safeParse(r.json).success).toBe(true)
      expect(r.json.errors[0].context.code).toBe('UNPROCESSABLE_CONTENT')
    }
  })

  test('the request reaches the service method its route names', async () => {
    const r = await t.request({
      method: 'POST',
      url: '/withdrawals',
      headers: headers(BLANC),
      payload: withdrawal,
    })
    expect(scrub(r.json)).toMatchInlineSnapshot(`
      {
        "code": "UNPROCESSABLE_CONTENT",
        "details": {
          "stub": "withdrawals.withdraw",
        },
        "message": "Test stub: withdrawals.withdraw was reached.",
        "traceId": "<trace id>",
      }
    `)
  })
})

describe('quotes are sent as built', () => {
  test('the route marks a quoting answer trusted: it is sent without a second zod pass', async () => {
    // Answers the response schema would refuse, in each version: sent as is proves the route
    // trusted them (and quoting.test.ts "through the app" proves real quotes are exactly what
    // the schema would send, and sent trusted). blanc: a quote without routes; alps: a best
    // route whose intentOp lacks every field the schema requires.
    const every = { routes: [] }
    const best = {
      requests: [],
      ethPrice: 0,
      routes: [
        {
          quoted: { intentOp: { notInTheSchema: true, signedMetadata: { tokenPrices: {} } } },
          plan: { method: 'COMPACT', allocations: [] },
          fees: [],
          gas: { origin: [], destination: { chainId: 8453, gas: 0n, wei: 0n, l1Wei: 0n }, totalWei: 0n },
          userFeeMicroUsd: 0n,
          sponsorFee: { relayer: 0, protocol: 0 },
        },
      ],
    } as unknown as QuoteResult
    // What the edge makes of them (simulator/http/versions), and proof the schema refuses it.
    const sentAs = {
      [ALPS]: JSON.parse(JSON.stringify(toAlpsRoute(best))),
      [BLANC]: every,
    }
    expect(AlpsRouteResponse.safeParse(sentAs[ALPS]).success).toBe(false)
    expect(BlancRouteResponse.safeParse(sentAs[BLANC]).success).toBe(false)
    // Unverified, as outside the tests: verified (as every other test is), a trusted answer the
    // schema refuses is a 500 (trustedResponse.test.ts).
    const quoted = await testApp(
      { verifyTrustedResponses: false },
      {
        quoting: {
          quoteBest: async () => best,
          quoteEvery: async () => every,
          resetQuotes: async () => {},
          portfolio: async () => ({ portfolio: [] }),
        },
      },
    )
    try {
      for (const [url, version] of [
        ['/intents/route', BLANC],
        ['/intents/route', ALPS],
        ['/quotes', BLANC],
      ] as const) {
        const r = await quoted.request({
          method: 'POST',
          url,
          headers: headers(version),
          payload: routeRequest(),
        })
        expect([url, version, r.status, r.json]).toEqual([url, version, 200, sentAs[version]])
      }
    } finally {
      await quoted.app.close()
    }
  })
})
