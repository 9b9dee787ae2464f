import { Agent, createServer, type Server } from 'node:http'
import { createServer as createNetServer, type Server as NetServer, type Socket } from 'node:net'
import { gzipSync } from 'node:zlib'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { localHttpPost } from '../../lib/localHttpPost'
import { canSend, loopbackPost } from '../../lib/loopbackHttp'
import { sendRequest } from './sendRequest'

// The lean client (sendRequest's ownServer) against node:http's, on the same servers: every
// answer must come out the same, and every request go out byte for byte the same.

let server: Server
let base: string
let connections = 0
/** A server that records the raw request bytes and answers with the raw bytes a path names. */
let raw: NetServer
let rawBase: string
const rawRequests: string[] = []

/** Raw answers by path: framings and header repetitions node:http's server does not make. */
const RAW: Record<string, string> = {
  '/to-the-end': 'HTTP/1.1 200 OK\r\ncontent-type: text/plain\r\nconnection: close\r\n\r\nread to the end',
  '/chunked-ext':
    'HTTP/1.1 200 OK\r\ntransfer-encoding: chunked\r\n\r\n4;ext=1\r\n{"a"\r\n3\r\n:1}\r\n0\r\nx-trailer: t\r\n\r\n',
  '/repeated':
    'HTTP/1.1 201 Created\r\ncontent-type: application/json\r\ncontent-type: text/plain\r\nx-list: a\r\nx-list: b\r\nset-cookie: s=1\r\nset-cookie: t=2\r\ncookie: c=1\r\ncookie: d=2\r\nlocation: /one\r\nlocation: /two\r\ncontent-length: 2\r\n\r\n{}',
  '/continue': 'HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 200 OK\r\ncontent-length: 4\r\n\r\ntrue',
  '/http10': 'HTTP/1.0 200 OK\r\ncontent-type: application/json\r\n\r\n{"v":"1.0"}',
  '/spaces': 'HTTP/1.1 200 OK\r\nx-padded:    value  \r\ncontent-length: 0\r\n\r\n',
}

beforeAll(async () => {
  server = createServer((req, res) => {
    const chunks: Buffer[] = []
    req.on('data', (chunk: Buffer) => chunks.push(chunk))
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString()
      if (req.url === '/json')
        return res.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}')
      if (req.url === '/echo')
        return res.end(JSON.stringify({ method: req.method, url: req.url, headers: req.headers, body }))
      if (req.url === '/chunked') {
        res.writeHead(200, { 'content-type': 'application/json' })
        res.write('{"parts":[')
        setTimeout(() => res.end('1,2,3]}'), 5)
        return
      }
      if (req.url === '/no-content') return res.writeHead(204, { 'x-why': 'nothing' }).end()
      if (req.url === '/gzip')
        return res.writeHead(200, { 'content-encoding': 'gzip' }).end(gzipSync('\uFEFF{"zipped":1}'))
      if (req.url === '/close') return res.writeHead(200, { connection: 'close' }).end('{"closed":1}')
      if (req.url === '/big-number') return res.end('{"n":123456789012345678901234567890}')
      if (req.url === '/headers')
        return res
          .writeHead(400, [
            ['x-multi', 'one'],
            ['x-multi', 'two'],
            ['set-cookie', 'a=1'],
            ['set-cookie', 'b=2'],
          ])
          .end('{"error":"bad"}')
      res.writeHead(404).end('not json')
    })
  })
  server.on('connection', () => connections++)
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  base = `http://127.0.0.1:${(server.address() as { port: number }).port}`

  raw = createNetServer((socket: Socket) => {
    let data = ''
    socket.on('data', (chunk) => {
      data += chunk.toString('latin1')
      const end = data.indexOf('\r\n\r\n')
      if (end === -1) return
      const length = Number(/\r\ncontent-length: (\d+)/i.exec(data)?.[1] ?? 0)
      if (data.length < end + 4 + length) return
      rawRequests.push(data)
      const path = data.split(' ')[1]!
      data = ''
      const answer = RAW[path] ?? 'HTTP/1.1 200 OK\r\ncontent-length: 2\r\n\r\n{}'
      if (
        /connection: close|HTTP\/1\.0/.test(answer.split('\r\n\r\n')[0]!) &&
        !answer.includes('content-length')
      )
        socket.end(answer)
      else socket.write(answer)
    })
  })
  await new Promise<void>((resolve) => raw.listen(0, '127.0.0.1', resolve))
  rawBase = `http://127.0.0.1:${(raw.address() as { port: number }).port}`
})
afterAll(() => {
  server.closeAllConnections()
  server.close()
  raw.close()
})

const both = async (parameters: {
  method: string
  url: string
  headers?: Record<string, string>
  body?: string | undefined
}) => {
  const request = { headers: {}, timeoutMs: 5000, ...parameters }
  const viaNode = await sendRequest(request)
  const viaLean = await sendRequest({ ...request, ownServer: true })
  return { viaNode, viaLean }
}

describe('the lean loopback client answers as node:http does', () => {
  test.each([
    ['GET', '/json', undefined],
    ['POST', '/echo', '{"a":"ü"}'],
    ['GET', '/chunked', undefined],
    ['GET', '/no-content', undefined],
    ['HEAD', '/json', undefined],
    ['GET', '/gzip', undefined],
    ['GET', '/close', undefined],
    ['GET', '/big-number', undefined],
    ['GET', '/headers', undefined],
    ['DELETE', '/missing', undefined],
  ])('%s %s', async (method, path, body) => {
    const { viaNode, viaLean } = await both({
      method,
      url: `${base}${path}`,
      headers: { 'x-api-key': 'key', 'x-api-version': '2026-04.blanc' },
      body,
    })
    const { date: _a, ...nodeHeaders } = viaNode.headers
    const { date: _b, ...leanHeaders } = viaLean.headers
    expect({ ...viaLean, headers: leanHeaders }).toEqual({ ...viaNode, headers: nodeHeaders })
  })

  test.each(Object.keys(RAW))('raw answer %s', async (path) => {
    const { viaNode, viaLean } = await both({ method: 'GET', url: `${rawBase}${path}` })
    expect(viaLean).toEqual(viaNode)
  })

  test('the request goes out byte for byte as node:http writes it', async () => {
    rawRequests.length = 0
    await both({
      method: 'POST',
      url: `${rawBase}/intents/route?x=1`,
      headers: { 'x-api-key': 'k', 'content-type': 'application/json', 'x-empty': '' },
      body: '{"destinationChainId":"ä"}',
    })
    await both({ method: 'GET', url: `${rawBase}/health` })
    expect(rawRequests).toHaveLength(4)
    expect(rawRequests[1]).toBe(rawRequests[0])
    expect(rawRequests[3]).toBe(rawRequests[2])
  })

  test('kept-alive sockets are reused, and one the server closed is not', async () => {
    await sendRequest({ method: 'GET', url: `${base}/json`, headers: {}, timeoutMs: 5000, ownServer: true })
    const before = connections
    for (let i = 0; i < 5; i++)
      await sendRequest({ method: 'GET', url: `${base}/json`, headers: {}, timeoutMs: 5000, ownServer: true })
    expect(connections).toBe(before)
    server.closeIdleConnections()
    await new Promise((resolve) => setTimeout(resolve, 50))
    const answer = await sendRequest({
      method: 'GET',
      url: `${base}/json`,
      headers: {},
      timeoutMs: 5000,
      ownServer: true,
    })
    expect(answer.json).toEqual({ ok: true })
    expect(connections).toBe(before + 1)
  })

  test('an idle kept-alive socket does not keep a process alive', async () => {
    const { execFile } = await import('node:child_process')
    const { promisify } = await import('node:util')
    const script = `
      const { sendRequest } = await import(${JSON.stringify(new URL('./sendRequest.ts', import.meta.url).href)})
      const answer = await sendRequest({ method: 'GET', url: process.argv[1], headers: {}, timeoutMs: 5000, ownServer: true })
      console.log(answer.status)`
    const started = performance.now()
    const { stdout: out } = await promisify(execFile)(
      process.execPath,
      ['--import', 'tsx', '--input-type=module', '-e', script, `${base}/json`],
      {
        encoding: 'utf8',
        timeout: 20_000,
      },
    )
    expect(out.trim()).toBe('200')
    // The server (this process, not blocked) keeps the connection open: the child exits at once all the same.
    expect(performance.now() - started).toBeLessThan(4_000)
  })

  test('a URL that does not parse is refused as node:http refuses it, as a rejection', async () => {
    const url = 'http://a:b:c/x'
    const viaNode = sendRequest({ method: 'GET', url, headers: {}, timeoutMs: 1000 })
    const viaLean = sendRequest({ method: 'GET', url, headers: {}, timeoutMs: 1000, ownServer: true })
    expect(await viaLean.catch(String)).toBe(await viaNode.catch(String))
    await expect(viaLean).rejects.toThrow('Invalid URL')
  })

  test('a refused connection fails as node:http fails', async () => {
    const closed = createNetServer()
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve))
    const url = `http://127.0.0.1:${(closed.address() as { port: number }).port}/x`
    await new Promise<void>((resolve) => closed.close(() => resolve()))
    const viaNode = await sendRequest({ method: 'GET', url, headers: {}, timeoutMs: 5000 }).catch(String)
    const viaLean = await sendRequest({
      method: 'GET',
      url,
      headers: {},
      timeoutMs: 5000,
      ownServer: true,
    }).catch(String)
    expect(viaLean).toBe(viaNode)
    expect(viaLean).toMatch(/ECONNREFUSED/)
  })

  test('what node:http frames or refuses itself stays with node:http', () => {
    expect(canSend('GET', '/health', { 'x-api-key': 'k' }, false)).toBe(true)
    expect(canSend('POST', '/intents/route', { 'content-type': 'application/json' }, true)).toBe(true)
    expect(canSend('POST', '/intents/route', {}, false)).toBe(false)
    expect(canSend('GET', '/a b', {}, false)).toBe(false)
    expect(canSend('GET', '/x', { 'bad header': 'v' }, false)).toBe(false)
    expect(canSend('GET', '/x', { 'x-a': 'line\r\nbreak' }, false)).toBe(false)
    expect(canSend('GET', '/x', { Host: 'other' }, false)).toBe(false)
    expect(canSend('GET', '/x', { 'Transfer-Encoding': 'chunked' }, false)).toBe(false)
  })

  test('a JSON-RPC POST (loopbackPost) goes out and comes back as localHttpPost makes it', async () => {
    rawRequests.length = 0
    const agent = new Agent({ keepAlive: true })
    const post = { url: new URL(`${rawBase}/`), body: '{"jsonrpc":"2.0","id":1,"method":"eth_chainId"}' }
    const headers = { 'content-type': 'application/json' }
    const viaNode = await localHttpPost({ ...post, agent, headers })
    const viaLean = await loopbackPost({ ...post, agent, headers })
    expect(viaLean).toEqual(viaNode)
    expect(rawRequests).toHaveLength(2)
    expect(rawRequests[1]).toBe(rawRequests[0])
    const url = new URL(`${base}/echo`)
    const { date: _a, ...nodeAnswer } = (await localHttpPost({ ...post, url, agent, headers })).headers
    const { date: _b, ...leanAnswer } = (await loopbackPost({ ...post, url, agent, headers })).headers
    expect(leanAnswer).toEqual(nodeAnswer)
    agent.destroy()
  })

  test("a POST without an answer fails after the idle time, with the caller's error", async () => {
    const silent = createNetServer(() => {})
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve))
    const url = new URL(`http://127.0.0.1:${(silent.address() as { port: number }).port}/`)
    const started = performance.now()
    await expect(
      loopbackPost({
        agent: new Agent(),
        url,
        body: '{}',
        timeoutMs: 200,
        timeoutError: () => new Error('RPC did not answer within 200 ms'),
      }),
    ).rejects.toThrow('RPC did not answer within 200 ms')
    expect(performance.now() - started).toBeLessThan(2000)
    silent.close()
  })
})
