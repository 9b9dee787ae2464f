import { describe, expect, test } from 'vitest'
import { AlpsErrorEnvelope, AlpsRouteResponse, BlancErrorEnvelope, BlancRouteResponse } from '../../spec'
import type { QuoteResult } from '../quoting/quote'
import {
  ALPS,
  BLANC,
  batchWithdrawal,
  blancSubmit,
  headers,
  KEY,
  REACHED,
  routeRequest,
  SECOND_KEY,
  scrub,
  signedIntentOp,
  testApp,
  withdrawal,
} from './testing/fixtures'
import { useTestApp } from './testing/useTestApp'
import { toAlpsRoute } from './versions/toAlpsRoute'

const t = useTestApp()
const { route } = t

describe('trace ids', () => {
  test('every response carries x-trace-id, equal to the body traceId, unique per request', async () => {
    const responses = await Promise.all([
      t.request({ method: 'GET', url: '/health' }),
      t.request({ method: 'POST', url: '/intents/route', payload: {} }), // 401
      t.request({ method: 'GET', url: '/no/such/path', headers: headers(ALPS) }), // 404
      t.request({
        method: 'POST',
        url: '/intents/route',
        headers: { ...headers(ALPS), 'content-type': 'application/json' },
        payload: '{"x":',
      }), // bad JSON
      route(ALPS, { tokenRequests: [] }), // 400
      route(BLANC), // reaches its service
    ])
    expect(responses.map((r) => r.status)).toEqual([200, 401, 404, 400, 400, REACHED])
    for (const r of responses) expect(r.traceId).toMatch(/^[0-9a-f-]{36}$/)
    for (const r of responses.slice(1)) expect(r.json.traceId).toBe(r.traceId)
    expect(new Set(responses.map((r) => r.traceId)).size).toBe(responses.length)
  })

  test('an incoming x-trace-id is not echoed: the service makes its own', async () => {
    const r = await t.request({ method: 'GET', url: '/health', headers: { 'x-trace-id': 'mine' } })
    expect(r.traceId).not.toBe('mine')
  })
})

describe('auth', () => {
  test('missing key → 401 UNAUTHORIZED (alps envelope)', async () => {
    const r = await t.request({
      method: 'POST',
      url: '/intents/route',
      headers: { 'x-api-version': ALPS },
      payload: routeRequest(),
    })
    expect(r.status).toBe(401)
    expect(AlpsErrorEnvelope.safeParse(r.json).success).toBe(true)
    expect(scrub(r.json)).toMatchInlineSnapshot(`
      {
        "errors": [
          {
            "context": {
              "code": "UNAUTHORIZED",
            },
            "message": "The x-api-key header is missing.",
          },
        ],
        "traceId": "<trace id>",
      }
    `)
  })

  test('wrong key → 401 in the blanc envelope when the version is blanc', async () => {
    const r = await route(BLANC, routeRequest(), { 'x-api-key': 'test-kez' })
    expect(r.status).toBe(401)
    expect(BlancErrorEnvelope.safeParse(r.json).success).toBe(true)
    expect(scrub(r.json)).toMatchInlineSnapshot(`
      {
        "code": "UNAUTHORIZED",
        "message": "The x-api-key header does not hold a valid API key.",
        "traceId": "<trace id>",
      }
    `)
  })

  test('a key that is a prefix or extension of a valid key is refused; every configured key works', async () => {
    for (const key of ['test', 'test-key ', `${KEY}x`, ''])
      expect((await route(ALPS, routeRequest(), { 'x-api-key': key })).status).toBe(401)
    expect((await route(ALPS, routeRequest(), { 'x-api-key': SECOND_KEY })).status).toBe(REACHED)
  })

  test('/_devnet/ needs the key; /health, /openapi.json and /docs do not', async () => {
    expect((await t.request({ method: 'GET', url: '/_devnet/faults' })).status).toBe(401)
    expect((await t.request({ method: 'GET', url: '/_devnet/faults', headers: headers() })).status).toBe(200)
    for (const url of ['/health', '/openapi.json', '/docs', '/docs/static/swagger-ui.css'])
      expect((await t.request({ method: 'GET', url })).status, url).toBe(200)
  })

  test('authentication comes before the version check', async () => {
    const r = await route('nonsense', routeRequest(), { 'x-api-key': 'wrong' })
    expect(r.status).toBe(401)
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
    const quoted = await testApp(
      {},
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
