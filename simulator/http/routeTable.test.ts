import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import Fastify from 'fastify'
import { afterAll, beforeAll, expect, test } from 'vitest'
import { checkResponse, defineRoutes, methodsOf, toFastifyPath } from '../../spec'
import { RouteTableError, registerRoutes } from './registerRoutes'
import { SERVER_ROUTES } from './serverRoutes'
import { headers, KEY, testApp } from './testing/fixtures'

let t: Awaited<ReturnType<typeof testApp>>
beforeAll(async () => {
  t = await testApp()
})
afterAll(() => t.app.close())

test('every route of the table is registered, with its method and path', () => {
  for (const [id, route] of Object.entries(SERVER_ROUTES))
    for (const method of methodsOf(route))
      expect(
        t.app.hasRoute({ method, url: toFastifyPath(route.path) }),
        `${id}: ${method} ${route.path}`,
      ).toBe(true)
})

test('no route is registered outside the table: registerRoutes is the one place that calls app.route', () => {
  const dir = import.meta.dirname
  const files = readdirSync(dir, { recursive: true, encoding: 'utf8' }).filter(
    (file) => file.endsWith('.ts') && !file.endsWith('.test.ts') && !file.startsWith('testing'),
  )
  const registering = files.filter((file) =>
    /\bapp\.(get|post|put|patch|delete|head|options|all|route)\(/.test(readFileSync(join(dir, file), 'utf8')),
  )
  expect(registering).toEqual(['registerRoutes.ts'])
})

test('a route without a handler, or a handler without a route, fails the registration', () => {
  const table = defineRoutes({
    ping: {
      method: 'GET',
      path: '/ping',
      versions: ['2026-01.alps'],
      access: 'public',
      section: 'test',
      summary: 'ping',
      tag: 'test',
      responses: {},
    },
  })
  expect(() => registerRoutes(Fastify(), table, {} as never)).toThrow(RouteTableError)
  expect(() => registerRoutes(Fastify(), table, {} as never)).toThrow(
    'The route ping (/ping) has no handler.',
  )
  expect(() =>
    registerRoutes(Fastify(), table, { ping: async () => 'pong', pong: async () => 'ping' } as never),
  ).toThrow(/without a route in the table: pong/)
})

test("the route's config carries its id, versions and access from the table", async () => {
  const r = await t.request({ method: 'GET', url: '/health' })
  expect(checkResponse(SERVER_ROUTES.health, r.status, 'alps', r.json)).toEqual([])
  const wrongVersion = await t.request({
    method: 'POST',
    url: '/quotes',
    headers: headers('2026-01.alps', KEY),
    payload: {},
  })
  expect(wrongVersion.status).toBe(404)
  expect(checkResponse(SERVER_ROUTES.quotePublic, wrongVersion.status, 'alps', wrongVersion.json)).toEqual([])
})
