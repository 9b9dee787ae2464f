import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterEach, expect, test } from 'vitest'
import { deliverWebhook } from './deliverWebhook'
import { verifyWebhookSignature } from './signWebhook'

const servers: Server[] = []
afterEach(async () => {
  for (const server of servers.splice(0)) {
    server.closeAllConnections()
    await new Promise((resolve) => server.close(resolve))
  }
})

/** A receiver on a free port that answers with `handle`; the requests it saw, with their bodies. */
async function receiver(handle: (request: IncomingMessage, response: ServerResponse) => void) {
  const seen: { headers: IncomingMessage['headers']; body: string }[] = []
  const server = createServer((request, response) => {
    let body = ''
    request.on('data', (chunk) => {
      body += chunk
    })
    request.on('end', () => {
      seen.push({ headers: request.headers, body })
      handle(request, response)
    })
  })
  servers.push(server)
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`, seen }
}

const body = JSON.stringify({ version: '1.0', type: 'test', eventId: 'evt_1', data: {} })
const deliver = (url: string, secret: string | null = null, timeoutMs = 1_000) =>
  deliverWebhook({ url, secret, body, timeoutMs, time: Date.UTC(2026, 0, 1) })

test('a 2xx: the exact body, JSON, our user agent, the signature over the bytes; the attempt records it', async () => {
  const r = await receiver((_, response) => response.writeHead(204).end())
  const attempt = await deliver(r.url, 's3cret')
  expect(attempt).toMatchObject({
    time: '2026-01-01T00:00:00.000Z',
    url: r.url,
    statusCode: 204,
    signed: true,
  })
  expect(attempt.error).toBeUndefined()
  expect(attempt.durationMs).toBeGreaterThanOrEqual(0)
  const [hit] = r.seen
  expect(hit!.body).toBe(body)
  expect(hit!.headers['content-type']).toBe('application/json')
  expect(hit!.headers['user-agent']).toBe('intent-devnet-webhooks/1.0')
  expect(hit!.headers['content-length']).toBe(String(Buffer.byteLength(body)))
  expect(verifyWebhookSignature('s3cret', body, hit!.headers['x-webhook-signature'] as string)).toBe(true)
})

test('a redirect is the answer (not followed); an error status is recorded as it came', async () => {
  const moved = await receiver((_, response) => response.writeHead(302, { location: '/elsewhere' }).end())
  expect((await deliver(moved.url)).statusCode).toBe(302)
  expect(moved.seen).toHaveLength(1)
  const failing = await receiver((_, response) => response.writeHead(500).end('boom'))
  expect(await deliver(failing.url)).toMatchObject({ statusCode: 500, signed: false })
})

test('no answer in time is a timeout; a refused connection names its code; neither throws', async () => {
  const silent = await receiver(() => {})
  const late = await deliver(silent.url, null, 100)
  expect(late.error).toBe('timeout after 100 ms')
  expect(late.statusCode).toBeUndefined()
  const gone = await receiver(() => {})
  const url = gone.url
  await new Promise((resolve) => servers.pop()!.close(resolve))
  expect(await deliver(url)).toMatchObject({ error: 'ECONNREFUSED' })
})

test('a status that came before the time limit counts, even if the body is still coming', async () => {
  const r = await receiver((_, response) => {
    response.writeHead(200)
    response.write('partial')
  })
  const attempt = await deliver(r.url, null, 150)
  expect(attempt.statusCode).toBe(200)
  expect(attempt.error).toBeUndefined()
})
