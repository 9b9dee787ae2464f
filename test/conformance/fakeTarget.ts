import { randomUUID } from 'node:crypto'
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'

/** How a fake target answers every request. */
export type FakeBehaviour = '200 {}' | '404 {}' | '500' | 'echo' | 'blanc 404'

/** A fake target that answers nonsense, and how to stop it. */
export type FakeTarget = { url: string; close: () => Promise<void> }

/** Starts a loopback server that answers every request the same nonsense way (or echoes it back). */
export async function startFakeTarget(behaviour: FakeBehaviour): Promise<FakeTarget> {
  const server = createServer((req, res) => {
    const chunks: Buffer[] = []
    req.on('data', (chunk: Buffer) => chunks.push(chunk))
    req.on('end', () => {
      const json = { 'content-type': 'application/json' }
      if (behaviour === '200 {}') res.writeHead(200, json).end('{}')
      else if (behaviour === '404 {}') res.writeHead(404, json).end('{}')
      else if (behaviour === '500') res.writeHead(500).end()
      else if (behaviour === 'blanc 404') {
        // A well-formed blanc NOT_FOUND to everything: the envelope is right, the route never there.
        const traceId = randomUUID()
        res
          .writeHead(404, { ...json, 'x-trace-id': traceId })
          .end(JSON.stringify({ code: 'NOT_FOUND', message: `${req.method} ${req.url} not found`, traceId }))
      } else res.writeHead(200, { ...json, ...echoedHeaders(req.headers) }).end(Buffer.concat(chunks))
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      }),
  }
}

/** The request's own headers sent back (those a response may carry). */
function echoedHeaders(headers: Record<string, string | string[] | undefined>): Record<string, string> {
  const out: Record<string, string> = {}
  for (const [name, value] of Object.entries(headers))
    if (
      typeof value === 'string' &&
      !['content-length', 'host', 'connection', 'transfer-encoding'].includes(name)
    )
      out[name] = value
  return out
}
