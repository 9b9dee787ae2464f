import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { gzipSync } from 'node:zlib'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { postControl, targetNow } from './controlApi'
import type { ScenarioContext } from './scenarioContext'

/** A control API that records each request and answers by path, as a vendor's may (compressed, a byte-order mark). */
let server: Server
let origin: string
const seen: { method: string; url: string; headers: Record<string, unknown>; body: string }[] = []

beforeAll(async () => {
  server = createServer((req, res) => {
    const chunks: Buffer[] = []
    req.on('data', (c: Buffer) => chunks.push(c))
    req.on('end', () => {
      seen.push({
        method: req.method ?? '',
        url: req.url ?? '',
        headers: req.headers,
        body: Buffer.concat(chunks).toString(),
      })
      if (req.url === '/_devnet/manifest')
        return res
          .writeHead(200, { 'content-type': 'application/json', 'content-encoding': 'gzip' })
          .end(gzipSync(Buffer.from('\uFEFF{"clock":{"now":1800000000}}')))
      if (req.url === '/_devnet/faults') return res.writeHead(400).end('\uFEFF{"code":"BAD"}')
      res.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}')
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
})
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())))

const contextOf = (target: string) => ({ target, apiKey: 'k-1' }) as ScenarioContext

describe('the control API calls (node:http, as the contract control client sends them)', () => {
  test('a POST: JSON body, the run key, the path at the target origin (a base path is not kept, as with fetch and new URL)', async () => {
    seen.length = 0
    const answer = await postControl(contextOf(`${origin}/api/`), '/_devnet/clock/advance', { seconds: 5 })
    expect(answer).toEqual({ status: 200, text: '{"ok":true}' })
    expect(seen).toHaveLength(1)
    expect(seen[0]).toMatchObject({
      method: 'POST',
      url: '/_devnet/clock/advance',
      headers: { 'x-api-key': 'k-1', 'content-type': 'application/json', 'content-length': '13' },
      body: '{"seconds":5}',
    })
  })

  test('an answer is kept as it came, status and text, without its byte-order mark', async () => {
    expect(await postControl(contextOf(origin), '/_devnet/faults', { enable: [] })).toEqual({
      status: 400,
      text: '{"code":"BAD"}',
    })
  })

  test("targetNow reads the manifest's clock (a GET without a body; gzip and a byte-order mark undone)", async () => {
    seen.length = 0
    expect(await targetNow(contextOf(origin))).toBe(1800000000)
    expect(seen[0]).toMatchObject({ method: 'GET', url: '/_devnet/manifest', body: '' })
    expect(seen[0]?.headers['content-type']).toBeUndefined()
  })

  test('a target that does not answer: the call rejects', async () => {
    await expect(postControl(contextOf('http://127.0.0.1:1'), '/_devnet/faults', {})).rejects.toThrow()
  })
})
