import { createServer, type IncomingMessage, request, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'

/** A proxy that serves a target's spec routes under other paths, and what it was asked. */
export type RewritingProxy = { url: string; rewritten: Map<string, number>; close: () => Promise<void> }

/** The proxy's routes (the inverse of `vendorProfile`): its path → the spec's, and how. */
const ROUTES: {
  name: string
  method: string
  match: RegExp
  to: (m: RegExpExecArray) => string
  caip2Chains?: boolean
}[] = [
  { name: 'quotes', method: 'POST', match: /^\/api\/v9\/blanc\/quotes$/, to: () => '/intents/route' },
  {
    name: 'signatures',
    method: 'PUT',
    match: /^\/api\/v9\/blanc\/orders\/([^/]+)\/signatures$/,
    to: (m) => `/intents/${m[1]}/submit`,
  },
  {
    name: 'order',
    method: 'GET',
    match: /^\/api\/v9\/blanc\/orders\/([^/]+)$/,
    to: (m) => `/intents/${m[1]}`,
    caip2Chains: true,
  },
  {
    name: 'withdrawals',
    method: 'POST',
    match: /^\/api\/v9\/compact\/withdrawals$/,
    to: () => '/withdrawals',
  },
]

/** The profile file (YAML) that describes this proxy's paths. */
export const vendorProfile = `name: vendor-v9
basePath: /api/v9
routes:
  - spec: POST /intents/route
    version: blanc
    target: POST /blanc/quotes
  - spec: POST /intents/{intentId}/submit
    target: PUT /blanc/orders/{intentId}/signatures
  - spec: GET /intents/{id}
    target: GET /blanc/orders/{id}
    caip2: { response: [/operations/*/chain] }
  - spec: POST /withdrawals
    target: POST /compact/withdrawals
`

/**
 * Starts a loopback proxy in front of a target that serves its spec routes only under `/api/v9`,
 * some renamed (see {@link vendorProfile}): the spec's own paths answer 404 (except the control
 * API), the renamed spec paths answer 404 under `/api/v9` too, and the blanc status writes its
 * chains as CAIP-2 ids. A run passes against it only by following the profile.
 */
export async function startRewritingProxy(target: string): Promise<RewritingProxy> {
  const upstream = new URL(target)
  const rewritten = new Map<string, number>()
  const forward = (req: IncomingMessage, res: ServerResponse, path: string, body: Buffer, caip2: boolean) => {
    const headers = { ...req.headers, host: upstream.host }
    delete headers['content-length']
    const outgoing = request(
      {
        host: upstream.hostname,
        port: upstream.port,
        method: req.method === 'PUT' ? 'POST' : req.method,
        path,
        headers: { ...headers, 'content-length': String(body.length) },
      },
      (answer) => {
        const chunks: Buffer[] = []
        answer.on('data', (chunk: Buffer) => chunks.push(chunk))
        answer.on('end', () => {
          let text = Buffer.concat(chunks).toString('utf8')
          if (caip2) text = text.replace(/"chain":(\d+)/g, '"chain":"eip155:$1"')
          const out = { ...answer.headers }
          delete out['content-length']
          delete out['transfer-encoding']
          res.writeHead(answer.statusCode ?? 502, out).end(text)
        })
      },
    )
    outgoing.on('error', () => (res.headersSent ? res.destroy() : res.writeHead(502).end()))
    outgoing.end(body)
  }
  const notFound = (res: ServerResponse) =>
    res.writeHead(404, { 'content-type': 'application/json' }).end('{"message":"not served here"}')
  const server = createServer((req, res) => {
    const chunks: Buffer[] = []
    req.on('data', (chunk: Buffer) => chunks.push(chunk))
    req.on('end', () => {
      const body = Buffer.concat(chunks)
      const url = req.url ?? '/'
      const [path = '/', query = ''] = url.split(/(?=\?)/)
      if (path.startsWith('/_devnet/')) return forward(req, res, url, body, false)
      for (const route of ROUTES) {
        const m = route.method === req.method ? route.match.exec(path) : null
        if (!m) continue
        rewritten.set(route.name, (rewritten.get(route.name) ?? 0) + 1)
        return forward(req, res, `${route.to(m)}${query}`, body, route.caip2Chains === true)
      }
      if (!path.startsWith('/api/v9/')) return notFound(res)
      const spec = path.slice('/api/v9'.length)
      // The spec paths this target renamed are not served under their spec names.
      const blanc = req.headers['x-api-version'] === '2026-04.blanc'
      if (
        (spec === '/intents/route' && blanc) ||
        /^\/intents\/[^/]+\/submit$/.test(spec) ||
        (req.method === 'GET' && /^\/intents\/[^/]+$/.test(spec)) ||
        spec === '/withdrawals'
      )
        return notFound(res)
      forward(req, res, `${spec}${query}`, body, false)
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  return {
    url: `http://127.0.0.1:${port}`,
    rewritten,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      }),
  }
}
