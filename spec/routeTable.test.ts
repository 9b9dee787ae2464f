import { describe, expect, test } from 'vitest'
import {
  ALL_VERSIONS,
  AlpsRouteResponse,
  BlancIntentStatus,
  BlancRouteResponse,
  checkResponse,
  findRoute,
  methodsOf,
  ROUTES,
  type RouteDefinition,
  responseSchemaOf,
  specSchemaNameOf,
  toFastifyPath,
} from '.'

describe('the route table', () => {
  test('every route has a method, a path, versions, a section and a success answer', () => {
    for (const [id, route] of Object.entries(ROUTES)) {
      expect(methodsOf(route).length, id).toBeGreaterThan(0)
      expect(route.path, id).toMatch(/^\/\S*$/)
      expect(route.versions.length, id).toBeGreaterThan(0)
      expect(
        route.versions.every((v) => ALL_VERSIONS.includes(v)),
        id,
      ).toBe(true)
      expect(route.section.length, id).toBeGreaterThan(10)
      expect(Object.keys(route.responses).length, id).toBeGreaterThan(0)
    }
  })

  test('no two routes share a method and path', () => {
    const seen = Object.values(ROUTES).flatMap((route) => methodsOf(route).map((m) => `${m} ${route.path}`))
    expect(new Set(seen).size).toBe(seen.length)
  })

  test("every alias names a route of the table, and a route's path parameters are its params schema's", () => {
    for (const [id, route] of Object.entries(ROUTES as Record<string, RouteDefinition>)) {
      if (route.aliasOf) expect(Object.keys(ROUTES), id).toContain(route.aliasOf.route)
      const names = [...route.path.matchAll(/\{(\w+)\}/g)].map((m) => m[1])
      const params = route.request?.params
      const shape = params && 'shape' in params ? Object.keys(params.shape as object) : []
      expect(shape.sort(), id).toEqual(names.sort())
    }
  })

  test('findRoute: by method and path, the query ignored, a literal segment before a parameter', () => {
    expect(findRoute(ROUTES, 'GET', '/intents/abc?x=1')?.id).toBe('intentStatus')
    expect(findRoute(ROUTES, 'POST', '/intents/abc/submit')?.id).toBe('submitQuoted')
    expect(findRoute(ROUTES, 'POST', '/intents/route')?.id).toBe('quote')
    expect(findRoute(ROUTES, 'POST', '/deposit-processor/webhooks/events/resend-failed')?.id).toBe(
      'webhookResendFailed',
    )
    expect(findRoute(ROUTES, 'POST', '/deposit-processor/webhooks/events/e1/resend')?.id).toBe(
      'webhookEventResend',
    )
    expect(findRoute(ROUTES, 'DELETE', '/intents/abc')).toBeUndefined()
    expect(findRoute(ROUTES, 'GET', '/nope')).toBeUndefined()
    expect(toFastifyPath('/intents/{intentId}/submit')).toBe('/intents/:intentId/submit')
  })

  test('responseSchemaOf: the success schema of the version, the envelope for an error', () => {
    expect(responseSchemaOf(ROUTES.quote, 200, 'alps')).toBe(AlpsRouteResponse)
    expect(responseSchemaOf(ROUTES.quote, 200, '2026-04.blanc')).toBe(BlancRouteResponse)
    expect(specSchemaNameOf(responseSchemaOf(ROUTES.intentStatus, 200, 'blanc')!)).toBe('BlancIntentStatus')
    expect(specSchemaNameOf(responseSchemaOf(ROUTES.quote, 404, 'blanc')!)).toBe('BlancErrorEnvelope')
    expect(specSchemaNameOf(responseSchemaOf(ROUTES.quote, 500, 'alps')!)).toBe('AlpsErrorEnvelope')
    expect(responseSchemaOf(ROUTES.intentStatus, 200, 'blanc')).toBe(BlancIntentStatus)
  })

  test('checkResponse: a conforming answer has no diagnostics; each kind of miss has one', () => {
    const envelope = { code: 'NOT_FOUND', message: 'No intent x.', traceId: 't' }
    expect(checkResponse(ROUTES.intentStatus, 404, 'blanc', envelope)).toEqual([])
    // The alps envelope is not blanc's.
    expect(checkResponse(ROUTES.intentStatus, 404, 'alps', envelope)).not.toEqual([])
    expect(checkResponse(ROUTES.health, 200, 'alps', { status: 'ok', chains: [] })).toEqual([])
    expect(checkResponse(ROUTES.health, 200, 'alps', { status: 'fine', chains: [] })).toEqual([
      { path: '/status', message: expect.any(String) },
    ])
    expect(checkResponse(ROUTES.health, 204, 'alps', undefined)[0]?.message).toMatch(/status 204 is not one/)
    expect(checkResponse(ROUTES.submitQuoted, 201, 'alps', {})[0]?.message).toMatch(/not served by version/)
  })
})
