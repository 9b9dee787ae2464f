import { type ChildProcess, spawn } from 'node:child_process'
import { once } from 'node:events'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { bigBody, type UploadClient, uploadClients } from './testing/uploadClients'

// A real service (stub domain, default 1 MiB body limit and timeouts) in its own process, as a
// client meets it: in this process the clients would share its event loop and never race it.
let server: ChildProcess
let url: string
const clients: UploadClient[] = uploadClients()
const headers = {
  'x-api-key': 'devnet-key',
  'x-api-version': '2026-04.blanc',
  'content-type': 'application/json',
}
const MB = 1024 * 1024

beforeAll(async () => {
  server = spawn(process.execPath, ['--import', 'tsx', 'simulator/http/testing/serveStub.ts'], {
    stdio: ['ignore', 'pipe', 'inherit'],
  })
  const [line] = (await once(server.stdout!, 'data')) as [Buffer]
  url = `${line.toString().trim()}/intents/route`
}, 30_000)
afterAll(async () => {
  for (const client of clients) client.close?.()
  server?.kill('SIGTERM')
  if (server && server.exitCode === null) await once(server, 'exit')
})

describe('every client reads its 413 (issue 31)', () => {
  const sixMb = bigBody(6 * MB)
  for (const client of clients)
    test(`${client.name}: 20 of 20 uploads of 6 MB read 413`, async () => {
      const outcomes = []
      for (let i = 0; i < 20; i++) outcomes.push(await client.upload(url, headers, sixMb))
      expect(outcomes.filter((o) => o.status === 413).length, JSON.stringify(outcomes)).toBe(20)
    }, 60_000)

  for (const size of [2, 20, 50])
    test(`a ${size} MB body: every client reads 413`, async () => {
      const body = bigBody(size * MB)
      const outcomes: Record<string, number> = {}
      for (const client of clients) outcomes[client.name] = (await client.upload(url, headers, body)).status
      expect(
        Object.values(outcomes).every((status) => status === 413),
        JSON.stringify(outcomes),
      ).toBe(true)
    }, 60_000)

  test('after a drained 413 the keep-alive connection still serves the next request', async () => {
    const client = clients[1]!
    expect((await client.upload(url, headers, bigBody(3 * MB))).status).toBe(413)
    const small = await client.upload(url, headers, Buffer.from('{"tokenRequests": ['))
    expect(small.status).toBe(400)
  })
})
