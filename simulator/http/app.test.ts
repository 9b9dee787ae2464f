import { describe, expect, test } from 'vitest'
import { AlpsErrorEnvelope, BlancErrorEnvelope } from '../../spec'
import {
  ALPS,
  BLANC,
  blancSubmit,
  headers,
  KEY,
  REACHED,
  routeRequest,
  SECOND_KEY,
  scrub,
  signedIntentOp,
} from './testing/fixtures'
import { useTestApp } from './testing/useTestApp'

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

describe('versioning (default mode)', () => {
  test('a missing header is served as alps', async () => {
    // POST /intent-operations serves only alps: reaching its service proves the missing header meant alps.
    const r = await t.request({
      method: 'POST',
      url: '/intent-operations',
      headers: headers(),
      payload: signedIntentOp,
    })
    expect(r.status).toBe(REACHED)
    expect(r.json.errors[0].context.code).toBe('UNPROCESSABLE_CONTENT')
  })

  test('a malformed header → 400 naming the known versions, alps envelope', async () => {
    const r = await route('2026-04-blanc')
    expect(r.status).toBe(400)
    expect(scrub(r.json)).toMatchInlineSnapshot(`
      {
        "errors": [
          {
            "context": {
              "code": "VALIDATION_ERROR",
              "header": "x-api-version",
              "knownVersions": [
                "2026-01.alps",
                "2026-04.blanc",
              ],
            },
            "message": "The x-api-version header "2026-04-blanc" is malformed: it must match YYYY-MM.name. Known versions: 2026-01.alps, 2026-04.blanc.",
          },
        ],
        "traceId": "<trace id>",
      }
    `)
  })

  test('an unknown well-formed version → 400 naming the known versions', async () => {
    const r = await route('2027-01.cortina')
    expect(r.status).toBe(400)
    expect(r.json.errors[0].message).toMatchInlineSnapshot(
      `"The x-api-version "2027-01.cortina" is not known. Known versions: 2026-01.alps, 2026-04.blanc."`,
    )
  })

  test('a path the version does not serve → 404 in that version’s envelope', async () => {
    const alpsOnly = await t.request({
      method: 'POST',
      url: '/intent-operations',
      headers: headers(BLANC),
      payload: signedIntentOp,
    })
    expect(alpsOnly.status).toBe(404)
    expect(scrub(alpsOnly.json)).toMatchInlineSnapshot(`
      {
        "code": "NOT_FOUND",
        "message": "POST /intent-operations is not served by version 2026-04.blanc; it is served by 2026-01.alps.",
        "traceId": "<trace id>",
      }
    `)
    const blancOnly = await t.request({
      method: 'POST',
      url: '/intents/123/submit',
      headers: headers(ALPS),
      payload: blancSubmit,
    })
    expect(blancOnly.status).toBe(404)
    expect(scrub(blancOnly.json)).toMatchInlineSnapshot(`
      {
        "errors": [
          {
            "context": {
              "code": "NOT_FOUND",
            },
            "message": "POST /intents/:intentId/submit is not served by version 2026-01.alps; it is served by 2026-04.blanc.",
          },
        ],
        "traceId": "<trace id>",
      }
    `)
    for (const [method, url] of [
      ['POST', '/quotes'],
      ['POST', '/intents'],
      ['GET', '/intents/abc'],
    ] as const)
      expect(
        (
          await t.request({
            method,
            url,
            headers: headers(ALPS),
            ...(method === 'POST' ? { payload: {} } : {}),
          })
        ).status,
      ).toBe(404)
    expect(
      (await t.request({ method: 'GET', url: '/intent-operation/1', headers: headers(BLANC) })).status,
    ).toBe(404)
  })

  test('an unknown path → 404 in the version’s envelope, with or without a key', async () => {
    const r = await t.request({ method: 'GET', url: '/nope?x=1', headers: { 'x-api-version': BLANC } })
    expect(r.status).toBe(404)
    expect(scrub(r.json)).toMatchInlineSnapshot(`
      {
        "code": "NOT_FOUND",
        "message": "No route GET /nope.",
        "traceId": "<trace id>",
      }
    `)
  })
})

describe('versioning (strict mode)', () => {
  const strict = useTestApp({ strictVersion: true })

  test('a missing header → 400 VALIDATION_ERROR naming the header and the known versions', async () => {
    const r = await strict.request({
      method: 'POST',
      url: '/intents/route',
      headers: headers(),
      payload: routeRequest(),
    })
    expect(r.status).toBe(400)
    expect(scrub(r.json)).toMatchInlineSnapshot(`
      {
        "errors": [
          {
            "context": {
              "code": "VALIDATION_ERROR",
              "header": "x-api-version",
              "knownVersions": [
                "2026-01.alps",
                "2026-04.blanc",
              ],
            },
            "message": "The x-api-version header is required. Known versions: 2026-01.alps, 2026-04.blanc.",
          },
        ],
        "traceId": "<trace id>",
      }
    `)
  })

  test('both versions are still served, and /_devnet/ and /health need no version', async () => {
    expect(
      (
        await strict.request({
          method: 'POST',
          url: '/intents/route',
          headers: headers(ALPS),
          payload: routeRequest(),
        })
      ).status,
    ).toBe(REACHED)
    expect(
      (
        await strict.request({
          method: 'POST',
          url: '/intents/route',
          headers: headers(BLANC),
          payload: routeRequest(),
        })
      ).status,
    ).toBe(REACHED)
    expect((await strict.request({ method: 'GET', url: '/_devnet/faults', headers: headers() })).status).toBe(
      200,
    )
    expect((await strict.request({ method: 'GET', url: '/health' })).status).toBe(200)
  })

  test('a malformed header is still 400 on /_devnet/', async () => {
    const r = await strict.request({ method: 'GET', url: '/_devnet/faults', headers: headers('v2') })
    expect(r.status).toBe(400)
  })
})
