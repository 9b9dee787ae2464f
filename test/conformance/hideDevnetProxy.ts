import { createServer, type IncomingMessage, request, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'

/** A proxy in front of a target that answers 404 to every `/_devnet/` path, and how to stop it. */
export type HideDevnetProxy = { url: string; close: () => Promise<void> }

/**
 * Starts a loopback proxy that forwards every request to `target` except the control API
 * (`/_devnet/…`), which it answers `404 {}`: the target as a vendor's implementation looks.
 */
export async function startHideDevnetProxy(target: string): Promise<HideDevnetProxy> {
  const upstream = new URL(target)
  const forward = (req: IncomingMessage, res: ServerResponse, body: Buffer) => {
    const outgoing = request(
      {
        host: upstream.hostname,
        port: upstream.port,
        method: req.method,
        path: req.url,
        headers: { ...req.headers, host: upstream.host },
      },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers)
        answer.pipe(res)
      },
    )
    outgoing.on('error', () => (res.headersSent ? res.destroy() : res.writeHead(502).end()))
    outgoing.end(body)
  }
  const server = createServer((req, res) => {
    if ((req.url ?? '').startsWith('/_devnet')) {
      res.writeHead(404, { 'content-type': 'application/json' }).end('{}')
      return
    }
    // The whole body is read first: a target that refuses an oversized body closes early.
    const chunks: Buffer[] = []
    req.on('data', (chunk: Buffer) => chunks.push(chunk))
    req.on('end', () => forward(req, res, Buffer.concat(chunks)))
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
