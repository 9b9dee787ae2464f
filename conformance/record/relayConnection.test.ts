import { once } from 'node:events'
import { createServer, request, type Server } from 'node:http'
import {
  type AddressInfo,
  connect,
  createServer as createNetServer,
  type Server as NetServer,
} from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type RelayedExchange, type RelayHandlers, relayConnection } from './relayConnection'

/**
 * The relay against a real Node HTTP server: a client sees what the target sent (chunking, HEAD,
 * 204, large bodies, pipelined requests, `connection: close`, 100-continue), and the recorder gets
 * each exchange with its bodies de-chunked.
 */
let target: Server
let targetUrl: URL
let proxy: NetServer
let proxyPort: number
const seen: RelayedExchange[] = []
const received: { method: string; url: string; headers: Record<string, unknown>; body: Buffer }[] = []
const big = Buffer.alloc(1024 * 1024, 'x')

const handlers = (url: URL): RelayHandlers<number> => ({
  target: url,
  local: (head) =>
    head.path === '/_record/ping'
      ? async (body) => ({
          status: 200,
          headers: { 'content-type': 'text/plain' },
          body: `pong ${body.length}`,
        })
      : undefined,
  begin: () => seen.length,
  rewriteRequest: () => undefined,
  rewritesResponse: (head) => head.path === '/rewritten',
  rewriteResponse: (_status, _headers, body) => Buffer.from(body.toString('utf8').toUpperCase()),
  done: (exchange) => seen.push(exchange),
})

beforeAll(async () => {
  target = createServer((req, res) => {
    const chunks: Buffer[] = []
    req.on('data', (c: Buffer) => chunks.push(c))
    req.on('end', () => {
      const body = Buffer.concat(chunks)
      received.push({ method: req.method!, url: req.url!, headers: req.headers, body })
      if (req.url === '/chunked') {
        res.writeHead(200, { 'content-type': 'text/plain', 'x-custom-Case': 'kept' })
        res.write('hello ')
        setTimeout(() => res.end('world'), 5)
      } else if (req.url === '/empty') {
        res.writeHead(204)
        res.end()
      } else if (req.url === '/big') {
        res.writeHead(200, { 'content-type': 'application/octet-stream', 'content-length': big.length })
        res.end(big)
      } else if (req.url === '/echo') {
        res.writeHead(200, { 'content-type': 'text/plain' })
        res.end(`${req.method} ${body.length} ${req.headers.host}`)
      } else if (req.url === '/close') {
        res.writeHead(200, { 'content-type': 'text/plain', connection: 'close' })
        res.end('bye')
      } else if (req.url === '/slow') {
        setTimeout(() => {
          res.writeHead(200, { 'content-type': 'text/plain' })
          res.end('late')
        }, 150)
      } else if (req.url === '/rewritten') {
        res.writeHead(200, { 'content-type': 'text/plain' })
        res.end('quiet')
      } else {
        res.writeHead(404, { 'content-type': 'application/json' })
        res.end('{"error":"not found"}')
      }
    })
  })
  await new Promise<void>((resolve) => target.listen(0, '127.0.0.1', resolve))
  targetUrl = new URL(`http://127.0.0.1:${(target.address() as AddressInfo).port}`)
  proxy = createNetServer({ allowHalfOpen: true }, (socket) => relayConnection(socket, handlers(targetUrl)))
  await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve))
  proxyPort = (proxy.address() as AddressInfo).port
})

afterAll(async () => {
  await new Promise<void>((resolve) => proxy?.close(() => resolve()))
  target?.closeAllConnections()
  await new Promise<void>((resolve) => target?.close(() => resolve()))
})

/** Sends raw bytes on one connection; resolves with everything the proxy sent until it closed or `until` matched. */
async function raw(bytes: string | Buffer, until?: (text: string) => boolean): Promise<string> {
  const socket = connect(proxyPort, '127.0.0.1')
  await once(socket, 'connect')
  socket.write(bytes)
  let text = ''
  return new Promise((resolve) => {
    socket.on('data', (chunk: Buffer) => {
      text += chunk.toString('latin1')
      if (until?.(text)) {
        socket.destroy()
        resolve(text)
      }
    })
    socket.on('close', () => resolve(text))
  })
}

const last = () => seen.at(-1)!

describe('relayConnection', () => {
  it('passes a chunked answer on as the target sent it, and records its body whole', async () => {
    const text = await raw('GET /chunked HTTP/1.1\r\nHost: proxy\r\nConnection: close\r\n\r\n')
    expect(text).toMatch(/^HTTP\/1\.1 200 OK\r\n/)
    expect(text).toContain('x-custom-Case: kept')
    expect(text.toLowerCase()).toContain('transfer-encoding: chunked')
    expect(text).toContain('6\r\nhello \r\n')
    expect(last().responseBody.toString()).toBe('hello world')
    expect(last().status).toBe(200)
  })

  it('sends the target its own Host and no accept-encoding; a chunked request arrives with its length', async () => {
    const text = await raw(
      'POST /echo HTTP/1.1\r\nHost: proxy\r\nAccept-Encoding: gzip\r\nTransfer-Encoding: chunked\r\nConnection: close\r\n\r\n5\r\nabcde\r\n3\r\nfgh\r\n0\r\n\r\n',
    )
    expect(text).toContain(`POST 8 ${targetUrl.host}`)
    const got = received.at(-1)!
    expect(got.headers['accept-encoding']).toBeUndefined()
    expect(got.headers['content-length']).toBe('8')
    expect(got.body.toString()).toBe('abcdefgh')
    expect(last().requestBody.toString()).toBe('abcdefgh')
  })

  it('answers pipelined requests in order on one connection (HEAD and 204 without a body)', async () => {
    const text = await raw(
      'HEAD /big HTTP/1.1\r\nHost: p\r\n\r\nGET /empty HTTP/1.1\r\nHost: p\r\n\r\nGET /echo HTTP/1.1\r\nHost: p\r\n\r\n',
      (t) => t.includes(`GET 0 ${targetUrl.host}`),
    )
    const statuses = [...text.matchAll(/HTTP\/1\.1 (\d+)/g)].map((m) => m[1])
    expect(statuses).toEqual(['200', '204', '200'])
    expect(text).toContain(`content-length: ${big.length}`)
    expect(text).not.toContain('xxxx')
  })

  it('relays a 1 MiB answer and a 1 MiB request intact over keep-alive', async () => {
    const port = proxyPort
    const get = await fetch(`http://127.0.0.1:${port}/big`)
    expect(Buffer.from(await get.arrayBuffer()).equals(big)).toBe(true)
    expect(last().responseBody.length).toBe(big.length)
    const post = await fetch(`http://127.0.0.1:${port}/echo`, { method: 'POST', body: big })
    expect(await post.text()).toBe(`POST ${big.length} ${targetUrl.host}`)
  })

  it('closes the client connection after an answer that says connection: close, as the target does', async () => {
    // No `until`: this resolves only when the proxy closes the connection.
    const text = await raw('GET /close HTTP/1.1\r\nHost: p\r\n\r\n')
    expect(text).toMatch(/\r\n3\r\nbye\r\n0\r\n\r\n$/)
  })

  it('answers 100 Continue itself before the body of a request that expects it', async () => {
    const answer = await new Promise<{ continued: boolean; body: string }>((resolve, reject) => {
      let continued = false
      const req = request(
        {
          port: proxyPort,
          host: '127.0.0.1',
          method: 'POST',
          path: '/echo',
          headers: { expect: '100-continue', 'content-length': 3 },
        },
        (res) => {
          let body = ''
          res.on('data', (c) => (body += c))
          res.on('end', () => resolve({ continued, body }))
        },
      )
      req.on('continue', () => {
        continued = true
        req.end('abc')
      })
      req.on('error', reject)
    })
    expect(answer).toEqual({ continued: true, body: `POST 3 ${targetUrl.host}` })
    expect(received.at(-1)!.headers.expect).toBeUndefined()
  })

  it('rewrites an answer it was asked to, with the new length; serves its own paths', async () => {
    const rewritten = await fetch(`http://127.0.0.1:${proxyPort}/rewritten`)
    expect(await rewritten.text()).toBe('QUIET')
    expect(rewritten.headers.get('content-length')).toBe('5')
    const local = await fetch(`http://127.0.0.1:${proxyPort}/_record/ping`, { method: 'POST', body: 'four' })
    expect(await local.text()).toBe('pong 4')
  })

  it('records an exchange whose client left before the answer came', async () => {
    const before = seen.length
    const socket = connect(proxyPort, '127.0.0.1')
    await once(socket, 'connect')
    socket.write('GET /slow HTTP/1.1\r\nHost: p\r\n\r\n')
    await new Promise((resolve) => setTimeout(resolve, 30))
    socket.destroy()
    for (let i = 0; i < 100 && seen.length === before; i++)
      await new Promise((resolve) => setTimeout(resolve, 10))
    expect(seen.length).toBe(before + 1)
    expect(last().head.path).toBe('/slow')
    expect(last().status).toBe(200)
    expect(last().responseBody.toString()).toBe('late')
  })

  it('answers 502 when the target does not answer, and records why', async () => {
    const closed = createNetServer()
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve))
    const deadUrl = new URL(`http://127.0.0.1:${(closed.address() as AddressInfo).port}`)
    await new Promise<void>((resolve) => closed.close(() => resolve()))
    const dead = createNetServer({ allowHalfOpen: true }, (socket) =>
      relayConnection(socket, handlers(deadUrl)),
    )
    await new Promise<void>((resolve) => dead.listen(0, '127.0.0.1', resolve))
    try {
      const socket = connect((dead.address() as AddressInfo).port, '127.0.0.1')
      socket.end('GET /anything HTTP/1.1\r\nHost: p\r\nConnection: close\r\n\r\n')
      let text = ''
      socket.on('data', (chunk: Buffer) => (text += chunk.toString()))
      await once(socket, 'close')
      expect(text).toMatch(/^HTTP\/1\.1 502 Bad Gateway\r\n/)
      expect(JSON.parse(text.slice(text.indexOf('\r\n\r\n') + 4))).toMatchObject({
        error: 'bad gateway',
        message: expect.stringMatching(/ECONNREFUSED/),
      })
      expect(last().error).toMatch(/ECONNREFUSED/)
      expect(last().status).toBeUndefined()
    } finally {
      await new Promise<void>((resolve) => dead.close(() => resolve()))
    }
  })
})
