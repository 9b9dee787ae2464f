import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'vitest'
import { ALPS, BLANC, headers, routeRequest, signedIntentOp, testApp } from './testing/fixtures'

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
      `"Unknown fault: chaos.monkey. Known faults: version.missing-as-blanc, version.accept-unknown, auth.accept-missing-key, limits.accept-11-ops, limits.accept-6-chains, errors.omit-code, errors.no-trace-id, errors.5xx-on-malformed-json."`,
    )
    expect(t.faults.list()).toEqual([])
  })
})

describe('each HTTP fault breaks exactly its rule', () => {
  test('version.missing-as-blanc', async () => {
    const get = () => t.request({ method: 'GET', url: '/intent-operation/1', headers: headers() })
    expect((await get()).status).toBe(501)
    t.faults.enable(['version.missing-as-blanc'])
    const r = await get()
    expect(r.status).toBe(404)
    expect(r.json.code).toBe('NOT_FOUND')
  })

  test('version.accept-unknown (malformed is still refused)', async () => {
    t.faults.enable(['version.accept-unknown'])
    const route = (version: string) =>
      t.request({ method: 'POST', url: '/intents/route', headers: headers(version), payload: routeRequest() })
    expect((await route('2099-01.zermatt')).status).toBe(501)
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
    expect(withoutKey.status).toBe(501)
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
    expect((await route(routeRequest({ chains: 1, ops: 11 }))).status).toBe(501)
    expect((await route(routeRequest({ chains: 6, ops: 1 }))).status).toBe(400)
    // Other errors of the same body are still reported.
    expect((await route({ ...routeRequest({ chains: 1, ops: 11 }), tokenRequests: [] })).status).toBe(400)
  })

  test('limits.accept-6-chains lifts only the chain limit', async () => {
    t.faults.enable(['limits.accept-6-chains'])
    const route = (body: object) =>
      t.request({ method: 'POST', url: '/intents/route', headers: headers(ALPS), payload: body })
    expect((await route(routeRequest({ chains: 6, ops: 1 }))).status).toBe(501)
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
    expect(good.status).toBe(501)
  })
})
