import { describe, expect, test } from 'vitest'
import {
  ALPS,
  BLANC,
  blancSubmit,
  headers,
  REACHED,
  routeRequest,
  scrub,
  signedIntentOp,
} from './testing/fixtures'
import { useTestApp } from './testing/useTestApp'

const t = useTestApp()
const { route } = t

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
