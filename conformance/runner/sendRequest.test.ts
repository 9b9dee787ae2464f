import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { brotliCompressSync, deflateSync, gzipSync } from 'node:zlib'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { MAX_RESPONSE_BYTES, sendRequest } from './sendRequest'

/**
 * A target that misbehaves on the wire: /endless streams a body without end, /trickle sends a
 * byte every 50 ms and never finishes, /big answers a body just over the limit, /ok answers.
 */
let server: Server
let base: string

beforeAll(async () => {
  server = createServer((req, res) => {
    if (req.url === '/endless') {
      res.writeHead(200, { 'content-type': 'application/json' })
      const chunk = Buffer.alloc(64 * 1024, 0x20)
      const pump = () => {
        while (!res.destroyed && res.write(chunk)) {}
        if (!res.destroyed) res.once('drain', pump)
      }
      return pump()
    }
    if (req.url === '/trickle') {
      res.writeHead(200, { 'content-type': 'application/json' })
      const timer = setInterval(() => res.write(' '), 50)
      return res.on('close', () => clearInterval(timer))
    }
    if (req.url === '/big') return res.end(Buffer.alloc(MAX_RESPONSE_BYTES + 1, 0x20))
    if (req.url?.startsWith('/echo')) return res.end(JSON.stringify({ url: req.url, host: req.headers.host }))
    // A proxy's doing: compressed although nothing asked for it, a charset and a byte-order mark.
    const encoded = /^\/encoded\/(.*)$/.exec(req.url ?? '')?.[1]
    if (encoded !== undefined) {
      const body = Buffer.from('\uFEFF{"ok":"encoded"}', 'utf8')
      const coded = { gzip: gzipSync, deflate: deflateSync, br: brotliCompressSync, bogus: (b: Buffer) => b }[
        encoded as 'gzip' | 'deflate' | 'br' | 'bogus'
      ](body)
      return res
        .writeHead(200, { 'content-type': 'application/json; charset=utf-8', 'content-encoding': encoded })
        .end(coded)
    }
    res.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}')
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
})
afterAll(() => {
  server.closeAllConnections()
  server.close()
})

const get = (path: string, timeoutMs = 10_000) =>
  sendRequest({ method: 'GET', url: `${base}${path}`, headers: {}, timeoutMs })

describe('sendRequest bounds what a target can make the runner read', () => {
  test('a body without end stops at the limit, with a message that says so', async () => {
    const started = performance.now()
    await expect(get('/endless')).rejects.toThrow('the response body is over 16 MiB')
    expect(performance.now() - started).toBeLessThan(8_000)
    await expect(get('/big')).rejects.toThrow('the response body is over 16 MiB')
  })

  test('an answer that never completes fails at the time limit, though bytes keep coming', async () => {
    const started = performance.now()
    await expect(get('/trickle', 500)).rejects.toThrow('no complete response within 500 ms')
    expect(performance.now() - started).toBeLessThan(3_000)
  })

  test('a compressed answer (gzip, deflate, br) is read decompressed, past a byte-order mark', async () => {
    for (const coding of ['gzip', 'deflate', 'br'])
      expect((await get(`/encoded/${coding}`)).json).toEqual({ ok: 'encoded' })
    // A coding the runner does not know: the body is judged as it came.
    expect((await get('/encoded/bogus')).json).toEqual({ ok: 'encoded' })
  })

  test('the request line and host are what node:http makes of the URL, plain or not', async () => {
    const paths = [
      '/echo/a/b?x=1&y=2',
      '/echo/a b',
      '/echo/a/../b',
      '/echo/./c?q=<1>',
      '/echo?x#frag',
      '/echo/%2e/ä',
    ]
    for (const path of paths) {
      const expected = new URL(`${base}${path}`)
      // Twice: the first of an origin, then one whose origin was seen.
      for (let i = 0; i < 2; i++)
        expect((await get(path)).json, path).toEqual({
          url: `${expected.pathname}${expected.search}`,
          host: expected.host,
        })
    }
  })

  test('a normal answer is read whole', async () => {
    const response = await get('/ok')
    expect(response.status).toBe(200)
    expect(response.json).toEqual({ ok: true })
  })

  test('a request node:http refuses at once fails with its error, and its deadline passes without a trace', async () => {
    const uncaught: unknown[] = []
    const onUncaught = (error: unknown) => uncaught.push(error)
    process.on('uncaughtException', onUncaught)
    try {
      for (const ownServer of [false, true]) {
        await expect(
          sendRequest({
            method: 'GET',
            url: `${base}/ok`,
            headers: { 'x-bad': 'line\nbreak' },
            timeoutMs: 50,
            ownServer,
          }),
        ).rejects.toThrow(/invalid character/i)
      }
      await new Promise((resolve) => setTimeout(resolve, 120))
    } finally {
      process.off('uncaughtException', onUncaught)
    }
    expect(uncaught).toEqual([])
  })
})
