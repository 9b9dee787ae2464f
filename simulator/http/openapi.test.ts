import { afterAll, beforeAll, expect, test } from 'vitest'
import { API_VERSIONS } from '../../spec'
import { testApp } from './testing/fixtures'

let t: Awaited<ReturnType<typeof testApp>>
// biome-ignore lint/suspicious/noExplicitAny: an OpenAPI document, read loosely
let doc: any
beforeAll(async () => {
  t = await testApp()
  doc = (await t.request({ method: 'GET', url: '/openapi.json' })).json
})
afterAll(() => t.app.close())

test('an OpenAPI 3.1 document with every route and the key as security scheme', () => {
  expect(doc.openapi).toBe('3.1.0')
  expect(doc.info.title).toBe('intent-devnet')
  expect(doc.components.securitySchemes.apiKey).toEqual({ type: 'apiKey', in: 'header', name: 'x-api-key' })
  expect(doc.security).toEqual([{ apiKey: [] }])
  const operations = Object.entries(doc.paths).flatMap(([path, methods]) =>
    Object.keys(methods as object).map((method) => `${method.toUpperCase()} ${path}`),
  )
  expect(operations.sort()).toMatchInlineSnapshot(`
    [
      "GET /_devnet/events",
      "GET /_devnet/explorer/chains",
      "GET /_devnet/explorer/chains/{chainId}/transactions/{hash}",
      "GET /_devnet/explorer/intents",
      "GET /_devnet/explorer/intents/{id}",
      "GET /_devnet/explorer/quotes",
      "GET /_devnet/faults",
      "GET /_devnet/manifest",
      "GET /accounts/{address}/portfolio",
      "GET /deposit-processor/deposits",
      "GET /deposit-processor/deposits/{id}",
      "GET /deposit-processor/setup",
      "GET /deposit-processor/webhooks/events",
      "GET /health",
      "GET /intent-operation/{id}",
      "GET /intents/{id}",
      "POST /_devnet/clock/advance",
      "POST /_devnet/faults",
      "POST /_devnet/prices",
      "POST /_devnet/quotes/reset",
      "POST /_devnet/revert",
      "POST /_devnet/snapshot",
      "POST /batch-withdrawals",
      "POST /deposit-processor/register",
      "POST /deposit-processor/setup",
      "POST /deposit-processor/webhooks/events/resend-failed",
      "POST /deposit-processor/webhooks/events/{id}/resend",
      "POST /deposit-processor/webhooks/test",
      "POST /intent-operations",
      "POST /intents",
      "POST /intents/route",
      "POST /intents/{intentId}/submit",
      "POST /quotes",
      "POST /withdrawals",
    ]
  `)
})

test('operations are generated from the zod schemas, with versions and the version header', () => {
  const route = doc.paths['/intents/route'].post
  const body = route.requestBody.content['application/json'].schema
  expect(body.required).toEqual(['destinationChainId', 'tokenRequests', 'account'])
  expect(body.properties.tokenRequests.items.properties.tokenAddress.pattern).toBe('^0x[0-9a-fA-F]{40}$')
  expect(body.properties.preClaimExecutions.additionalProperties.maxItems).toBe(10)
  expect(route['x-api-versions']).toEqual([...API_VERSIONS])
  expect(route.parameters).toContainEqual(expect.objectContaining({ in: 'header', name: 'x-api-version' }))
  expect(route.responses['200']).toBeDefined()
  expect(doc.paths['/intent-operations'].post['x-api-versions']).toEqual(['2026-01.alps'])
  expect(doc.paths['/intent-operations'].post.responses['201']).toBeDefined()
  expect(doc.paths['/intents/{intentId}/submit'].post['x-api-versions']).toEqual(['2026-04.blanc'])
  expect(doc.paths['/intent-operation/{id}'].get.parameters).toContainEqual(
    expect.objectContaining({ in: 'path', name: 'id', required: true }),
  )
})

test('/health is public and unversioned in the document', () => {
  expect(doc.paths['/health'].get.security).toEqual([])
  expect(doc.paths['/health'].get.parameters ?? []).toEqual([])
})

test('/docs serves the reference page with its assets from the service itself', async () => {
  const page = await t.request({ method: 'GET', url: '/docs' })
  expect(page.status).toBe(200)
  expect(page.response.body).not.toMatch(/https?:\/\/(cdn|unpkg|cdnjs)/)
  const initializer = await t.request({ method: 'GET', url: '/docs/static/swagger-initializer.js' })
  expect(initializer.status).toBe(200)
  const bundle = await t.request({ method: 'GET', url: '/docs/static/swagger-ui-bundle.js' })
  expect(bundle.status).toBe(200)
  expect(bundle.response.body.length).toBeGreaterThan(100_000)
})

// `/docs` is loaded on its first request (plugins/openapi.ts lazyDocs) and answers as the plugin
// registered in the service did: these are answers that the first version's routes gave.
test('/docs answers as when the plugin was registered at start: HEAD, 304, 404s, errors, /docs/json', async () => {
  const css = await t.request({ method: 'GET', url: '/docs/static/swagger-ui.css' })
  expect(css.status).toBe(200)
  expect(css.headers['content-security-policy']).toMatch(/^default-src 'self'/)
  expect(css.traceId).toBeDefined()
  const head = await t.request({ method: 'HEAD', url: '/docs/static/swagger-ui.css' })
  expect(head.status).toBe(200)
  expect(head.headers['content-length']).toBe(String(css.response.rawPayload.length))
  expect(head.response.rawPayload.length).toBe(0)
  const page = await t.request({ method: 'GET', url: '/docs' })
  const headPage = await t.request({ method: 'HEAD', url: '/docs' })
  expect(headPage.headers['content-length']).toBe(String(page.response.rawPayload.length))
  const cached = await t.request({
    method: 'GET',
    url: '/docs/static/swagger-ui.css',
    headers: { 'if-none-match': String(css.headers.etag) },
  })
  expect(cached.status).toBe(304)
  expect(cached.headers['content-type']).toBeUndefined()
  const redirect = await t.request({ method: 'GET', url: '/docs/static/index.html' })
  expect([redirect.status, redirect.headers.location, redirect.headers['content-type']]).toEqual([
    302,
    '/docs/',
    undefined,
  ])
  // A missing asset: the service's 404 envelope, with the page's CSP (the plugin's context
  // answered it); a path the plugin has no route for: the service's plain 404.
  const missing = await t.request({ method: 'GET', url: '/docs/static/nope.js' })
  expect([missing.status, missing.json?.errors?.[0]?.context?.code]).toEqual([404, 'NOT_FOUND'])
  expect(missing.headers['content-security-policy']).toBeDefined()
  const unknown = await t.request({ method: 'GET', url: '/docs/nope' })
  expect(unknown.status).toBe(404)
  expect(unknown.headers['content-security-policy']).toBeUndefined()
  expect((await t.request({ method: 'POST', url: '/docs' })).status).toBe(404)
  expect((await t.request({ method: 'GET', url: '/docs/json' })).json).toEqual(doc)
})

test('/docs refuses a path out of its assets (`..`, not normalized away) through the error envelope', async () => {
  const address = await t.app.listen({ port: 0, host: '127.0.0.1' })
  const { request } = await import('node:http')
  const answer = await new Promise<{ status: number | undefined; body: string; csp: unknown }>(
    (resolve, reject) => {
      const url = new URL(address)
      const req = request(
        { hostname: url.hostname, port: url.port, path: '/docs/static/../../package.json' },
        (res) => {
          let body = ''
          res.on('data', (chunk) => {
            body += chunk
          })
          res.on('end', () =>
            resolve({ status: res.statusCode, body, csp: res.headers['content-security-policy'] }),
          )
        },
      )
      req.on('error', reject)
      req.end()
    },
  )
  expect(answer.status).toBe(403)
  expect(JSON.parse(answer.body).errors[0].context.code).toBe('FORBIDDEN')
  expect(answer.csp).toBeDefined()
})
