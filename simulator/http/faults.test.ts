import type { InjectOptions } from 'fastify'
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'vitest'
import { faultControl } from '../faultInjection/http/control'
import { createFaults, FAULT_NAMES } from '../faults/faults'
import { buildApp } from './app'
import {
  ALPS,
  BLANC,
  blancSubmit,
  headers,
  KEY,
  REACHED,
  routeRequest,
  signedIntentOp,
  testApp,
  withdrawal,
} from './testing/fixtures'
import { stubServices } from './testing/stubServices'

let t: Awaited<ReturnType<typeof testApp>>
beforeAll(async () => {
  t = await testApp()
})
beforeEach(() => t.faults.clear())
afterAll(() => t.app.close())

const setFaults = (body: object) =>
  t.request({ method: 'POST', url: '/_devnet/faults', headers: headers(), payload: body })

describe('/_devnet/faults', () => {
  test('GET lists the enabled faults and the catalogue; POST enables, disables and clears', async () => {
    const initial = await t.request({ method: 'GET', url: '/_devnet/faults', headers: headers() })
    expect(initial.json.enabled).toEqual([])
    expect(Object.keys(initial.json.known)).toContain('errors.omit-code')
    expect(
      (await setFaults({ enable: ['errors.omit-code', 'limits.accept-6-chains'] })).json.enabled,
    ).toEqual(['limits.accept-6-chains', 'errors.omit-code'])
    expect((await setFaults({ disable: ['errors.omit-code'] })).json.enabled).toEqual([
      'limits.accept-6-chains',
    ])
    expect((await setFaults({ clear: true })).json.enabled).toEqual([])
  })

  test('an unknown fault → 400 listing the known ones, and nothing changes', async () => {
    const r = await setFaults({ enable: ['errors.omit-code', 'chaos.monkey'] })
    expect(r.status).toBe(400)
    expect(r.json.errors[0].message).toMatchInlineSnapshot(
      `"Unknown fault: chaos.monkey. Known faults: version.missing-as-blanc, version.accept-unknown, version.accept-malformed, version.serve-other-version-paths, auth.accept-missing-key, auth.accept-wrong-key, auth.control-api-open, limits.accept-11-ops, limits.accept-6-chains, limits.refuse-10-ops, errors.omit-code, errors.no-trace-id, errors.trace-id-mismatch, errors.alps-as-blanc, errors.5xx-on-malformed-json, errors.5xx-on-oversized-body, input.accept-negative-amount, input.accept-over-uint256, input.5xx-on-wrong-types, deposits.setup-ignores-null, deposits.ignore-whitelist, deposits.wrong-error-code, webhooks.wrong-secret, webhooks.sign-without-secret, webhooks.drop-signature, quotes.no-404-after-expiry, quotes.malformed-field, intents.accept-duplicate, intents.alps-accept-duplicate, intents.accept-tampered, intents.settle-refused-tampered, intents.skip-claims, intents.refund-sponsor-one-unit, withdrawals.bad-allocator-signature, quotes.access-list-tokens-inverted, quotes.access-list-ignore-chains, quotes.routes-most-expensive-first, quotes.fee-total-mismatch, quotes.negative-fee-part, quotes.expires-before-fill-deadline, quotes.deadlines-in-the-past, quotes.drop-destination-executions, quotes.drop-pre-claim-executions, quotes.balance-from-allowance, quotes.invert-has-fulfilled, quotes.shortfall-on-covered, intents.skip-signature-check, withdrawals.refuse-exact-balance, withdrawals.sign-over-balance, deposits.refuse-equal-bounds."`,
    )
    expect(t.faults.list()).toEqual([])
  })
})

describe('each HTTP fault breaks exactly its rule', () => {
  test('version.missing-as-blanc', async () => {
    const get = () => t.request({ method: 'GET', url: '/intent-operation/1', headers: headers() })
    expect((await get()).status).toBe(REACHED)
    t.faults.enable(['version.missing-as-blanc'])
    const r = await get()
    expect(r.status).toBe(404)
    expect(r.json.code).toBe('NOT_FOUND')
  })

  test('version.accept-unknown (malformed is still refused)', async () => {
    t.faults.enable(['version.accept-unknown'])
    const route = (version: string) =>
      t.request({ method: 'POST', url: '/intents/route', headers: headers(version), payload: routeRequest() })
    expect((await route('2099-01.zermatt')).status).toBe(REACHED)
    expect((await route('zermatt')).status).toBe(400)
  })

  test('auth.accept-missing-key (a wrong key is still refused)', async () => {
    t.faults.enable(['auth.accept-missing-key'])
    const withoutKey = await t.request({
      method: 'POST',
      url: '/intents/route',
      headers: { 'x-api-version': ALPS },
      payload: routeRequest(),
    })
    expect(withoutKey.status).toBe(REACHED)
    const wrongKey = await t.request({
      method: 'POST',
      url: '/intents/route',
      headers: headers(ALPS, 'wrong'),
      payload: routeRequest(),
    })
    expect(wrongKey.status).toBe(401)
  })

  test('limits.accept-11-ops lifts only the per-chain limit', async () => {
    t.faults.enable(['limits.accept-11-ops'])
    const route = (body: object) =>
      t.request({ method: 'POST', url: '/intents/route', headers: headers(ALPS), payload: body })
    expect((await route(routeRequest({ chains: 1, ops: 11 }))).status).toBe(REACHED)
    expect((await route(routeRequest({ chains: 6, ops: 1 }))).status).toBe(400)
    // Other errors of the same body are still reported.
    expect((await route({ ...routeRequest({ chains: 1, ops: 11 }), tokenRequests: [] })).status).toBe(400)
  })

  test('limits.accept-6-chains lifts only the chain limit', async () => {
    t.faults.enable(['limits.accept-6-chains'])
    const route = (body: object) =>
      t.request({ method: 'POST', url: '/intents/route', headers: headers(ALPS), payload: body })
    expect((await route(routeRequest({ chains: 6, ops: 1 }))).status).toBe(REACHED)
    expect((await route(routeRequest({ chains: 1, ops: 11 }))).status).toBe(400)
  })

  test('errors.omit-code drops only the blanc code', async () => {
    t.faults.enable(['errors.omit-code'])
    const r = await t.request({ method: 'POST', url: '/intents/route', headers: headers(BLANC), payload: {} })
    expect(r.status).toBe(400)
    expect(r.json.code).toBeUndefined()
    expect(r.json.message).toMatch(/^Invalid request/)
    expect(r.json.traceId).toBe(r.traceId)
  })

  test('errors.no-trace-id drops the header on every response', async () => {
    t.faults.enable(['errors.no-trace-id'])
    for (const url of ['/health', '/no/such'])
      expect((await t.request({ method: 'GET', url })).headers['x-trace-id']).toBeUndefined()
  })

  test('errors.5xx-on-malformed-json answers 500 to bad JSON only', async () => {
    t.faults.enable(['errors.5xx-on-malformed-json'])
    const bad = await t.request({
      method: 'POST',
      url: '/intent-operations',
      headers: { ...headers(ALPS), 'content-type': 'application/json' },
      payload: '{"signedIntentOp":',
    })
    expect(bad.status).toBe(500)
    expect(bad.json.errors[0].context.code).toBe('INTERNAL_ERROR')
    const good = await t.request({
      method: 'POST',
      url: '/intent-operations',
      headers: headers(ALPS),
      payload: signedIntentOp,
    })
    expect(good.status).toBe(REACHED)
  })

  const route = (version: string, payload: unknown, key?: string) =>
    t.request({
      method: 'POST',
      url: '/intents/route',
      headers: headers(version, key),
      payload: payload as object,
    })

  test('auth.accept-wrong-key (a missing key is still refused)', async () => {
    t.faults.enable(['auth.accept-wrong-key'])
    expect((await route(ALPS, routeRequest(), 'wrong')).status).toBe(REACHED)
    const missing = await t.request({
      method: 'POST',
      url: '/intents/route',
      headers: { 'x-api-version': ALPS },
      payload: routeRequest(),
    })
    expect(missing.status).toBe(401)
  })

  test('auth.control-api-open opens only /_devnet/', async () => {
    t.faults.enable(['auth.control-api-open'])
    expect((await t.request({ method: 'GET', url: '/_devnet/faults' })).status).toBe(200)
    expect(
      (await t.request({ method: 'GET', url: '/intent-operation/1', headers: { 'x-api-version': ALPS } }))
        .status,
    ).toBe(401)
  })

  test('version.accept-malformed serves a malformed version as alps', async () => {
    t.faults.enable(['version.accept-malformed'])
    expect((await route('blanc', routeRequest())).status).toBe(REACHED)
    expect((await route('2099-01.zermatt', routeRequest())).status).toBe(400)
  })

  test("version.serve-other-version-paths routes the other version's paths", async () => {
    t.faults.enable(['version.serve-other-version-paths'])
    const submit = await t.request({
      method: 'POST',
      url: '/intents/1/submit',
      headers: headers(ALPS),
      payload: blancSubmit,
    })
    expect(submit.status).toBe(REACHED)
  })

  test('errors.alps-as-blanc and errors.trace-id-mismatch change only the envelope', async () => {
    t.faults.enable(['errors.alps-as-blanc'])
    const blanc = await route(ALPS, {})
    expect(blanc.status).toBe(400)
    expect(blanc.json.code).toBe('VALIDATION_ERROR')
    expect(blanc.json.errors).toBeUndefined()
    t.faults.clear()
    t.faults.enable(['errors.trace-id-mismatch'])
    const other = await route(BLANC, {})
    expect(other.headers['x-trace-id']).toBeDefined()
    expect(other.json.traceId).not.toBe(other.headers['x-trace-id'])
  })

  test('errors.5xx-on-oversized-body answers 500 to an oversized body', async () => {
    t.faults.enable(['errors.5xx-on-oversized-body'])
    const big = await route(BLANC, { padding: 'x'.repeat(2 * 1024 * 1024) })
    expect(big.status).toBe(500)
    expect((await route(BLANC, {})).status).toBe(400)
  })

  test('input.accept-negative-amount and input.accept-over-uint256 let only those amounts through', async () => {
    const amount = (value: string) => ({
      ...routeRequest(),
      tokenRequests: [{ tokenAddress: '0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913', amount: value }],
    })
    t.faults.enable(['input.accept-negative-amount'])
    expect((await route(BLANC, amount('-5'))).status).toBe(REACHED)
    expect((await route(BLANC, amount(`1${'0'.repeat(80)}`))).status).toBe(400)
    expect(
      (
        await t.request({
          method: 'POST',
          url: '/withdrawals',
          headers: headers(BLANC),
          payload: { ...withdrawal, amount: -5 },
        })
      ).status,
    ).toBe(REACHED)
    t.faults.clear()
    t.faults.enable(['input.accept-over-uint256'])
    expect((await route(BLANC, amount(`1${'0'.repeat(80)}`))).status).toBe(REACHED)
    expect((await route(BLANC, amount('-5'))).status).toBe(400)
  })

  test('input.5xx-on-wrong-types answers 500 to a wrong type only', async () => {
    t.faults.enable(['input.5xx-on-wrong-types'])
    expect((await route(BLANC, { ...routeRequest(), destinationChainId: [] })).status).toBe(500)
    expect((await route(BLANC, routeRequest())).status).toBe(REACHED)
  })

  test('limits.refuse-10-ops refuses exactly 10 operations on a chain', async () => {
    t.faults.enable(['limits.refuse-10-ops'])
    expect((await route(BLANC, routeRequest({ chains: 1, ops: 10 }))).status).toBe(400)
    expect((await route(BLANC, routeRequest({ chains: 1, ops: 9 }))).status).toBe(REACHED)
  })
})

test('without the fault plugin the HTTP plugins know no fault: every fault on, every rule holds', async () => {
  const faults = createFaults()
  faults.enable(FAULT_NAMES)
  // The control service on the registry, but not the plugin (buildApp's `plugins` left empty).
  const app = await buildApp({ apiKeys: [KEY] }, stubServices({ faults: faultControl(faults) }))
  try {
    const inject = (options: InjectOptions) => app.inject(options)
    const noKey = await inject({ method: 'POST', url: '/intents/route', payload: routeRequest() })
    expect(noKey.statusCode).toBe(401)
    expect(noKey.headers['x-trace-id']).toBeDefined()
    expect(noKey.json().errors[0].context.code).toBe('UNAUTHORIZED')
    const withKey = (version: string, payload: unknown) =>
      inject({
        method: 'POST',
        url: '/intents/route',
        headers: { 'x-api-key': KEY, 'x-api-version': version },
        payload: payload as object,
      })
    expect((await withKey('2099-01.zermatt', routeRequest())).statusCode).toBe(400)
    const negative = await withKey(BLANC, {
      ...routeRequest(),
      tokenRequests: [{ tokenAddress: '0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913', amount: '-5' }],
    })
    expect(negative.statusCode).toBe(400)
    expect(negative.json().code).toBe('VALIDATION_ERROR')
    expect(negative.json().traceId).toBe(negative.headers['x-trace-id'])
    expect((await withKey(BLANC, { ...routeRequest(), destinationChainId: [] })).statusCode).toBe(400)
    expect((await withKey(BLANC, routeRequest({ chains: 1, ops: 10 }))).statusCode).toBe(REACHED)
    expect((await withKey(BLANC, routeRequest({ chains: 1, ops: 11 }))).statusCode).toBe(400)
  } finally {
    await app.close()
  }
})
