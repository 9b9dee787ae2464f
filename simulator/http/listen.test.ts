import { afterAll, beforeAll, expect, test } from 'vitest'
import { ListenError, startService } from './startService'
import { REACHED, routeRequest } from './testing/fixtures'
import { stubServices } from './testing/stubServices'

let service: Awaited<ReturnType<typeof startService>>
beforeAll(async () => {
  service = await startService({
    port: 0,
    apiKey: 'listen-key',
    services: stubServices(),
  })
})
afterAll(() => service.close())

test('a real listening server answers over HTTP with the contract', async () => {
  expect(service.baseUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/)
  const health = await fetch(`${service.baseUrl}/health`)
  expect(health.status).toBe(200)
  expect(health.headers.get('x-trace-id')).toMatch(/^[0-9a-f-]{36}$/)
  expect(await health.json()).toEqual({ status: 'ok', chains: [] })

  const unauthorized = await fetch(`${service.baseUrl}/intents/route`, { method: 'POST' })
  expect(unauthorized.status).toBe(401)

  const post = (body: string, type = 'application/json') =>
    fetch(`${service.baseUrl}/intents/route`, {
      method: 'POST',
      headers: { 'x-api-key': service.apiKey, 'x-api-version': '2026-04.blanc', 'content-type': type },
      body,
    })
  const valid = await post(JSON.stringify(routeRequest()))
  expect(valid.status).toBe(REACHED)
  const body = await valid.json()
  expect(body).toMatchObject({
    code: 'UNPROCESSABLE_CONTENT',
    details: { stub: 'quoting.quoteEvery' },
    traceId: valid.headers.get('x-trace-id'),
  })

  const malformed = await post('{"tokenRequests": [')
  expect(malformed.status).toBe(400)
  // A body over the default 1 MiB limit, streamed for real.
  const tooLarge = await post(JSON.stringify({ ...routeRequest(), pad: 'x'.repeat(1_100_000) }))
  expect(tooLarge.status).toBe(413)
  expect(((await tooLarge.json()) as { code: string }).code).toBe('PAYLOAD_TOO_LARGE')
})

test('close() stops listening and is idempotent', async () => {
  const other = await startService({ port: 0, services: stubServices() })
  expect(other.apiKey).toBe('devnet-key')
  await Promise.all([other.close(), other.close()])
  await expect(fetch(`${other.baseUrl}/health`)).rejects.toThrow()
})

test('a port in use is named, and said to be in use', async () => {
  const port = Number(new URL(service.baseUrl).port)
  const error = await startService({ port, services: stubServices() }).catch((e) => e)
  expect(error).toBeInstanceOf(ListenError)
  expect((error as ListenError).shortMessage).toBe(
    `Cannot listen on 127.0.0.1:${port}: port ${port} is already in use (another intent-devnet or another program listens on it); stop it, or choose another port with --port (0: any free port).`,
  )
})
