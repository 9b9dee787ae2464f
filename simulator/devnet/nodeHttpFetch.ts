import { Agent, request } from 'node:http'
import type { HttpTransportConfig } from 'viem'

/** What viem's http transport calls instead of `fetch` (its `fetchFn`). */
export type FetchFn = NonNullable<HttpTransportConfig['fetchFn']>

/**
 * A `fetch` for viem's `http` transport to a local `http://` JSON-RPC endpoint (the devnet's
 * Anvils), over `node:http` keep-alive sockets. viem keeps doing everything else (batching,
 * timeouts through the `signal`, errors); only the HTTP hop changes: Node 20's `fetch` (undici)
 * sets up a dispatcher, WHATWG Request/Response and body streams on every request. A bundled
 * `intent-devnet up` measured 1020 ms of CPU to `/health` with this against 1480 ms with `fetch`
 * (issue 18, BENCHMARKS.md "Fast start"). undici itself still loads: viem builds a `Headers`
 * per request. The answer is a small object with what viem reads of a `Response` (`ok`,
 * `status`, `statusText`, `headers.get`, `text()`, `json()`; no `body` stream).
 *
 * @example
 * const transport = http(anvil.rpcUrl, { fetchFn: nodeHttpFetch() })
 */
export function nodeHttpFetch(agent = new Agent({ keepAlive: true })): FetchFn {
  const fetchFn = (input: string | URL | Request, init?: RequestInit) =>
    new Promise<Response>((resolve, reject) => {
      const url = new URL(typeof input === 'string' || input instanceof URL ? input : input.url)
      const signal = init?.signal ?? undefined
      if (signal?.aborted) return reject(signal.reason)
      const body = typeof init?.body === 'string' ? init.body : ''
      const req = request(
        {
          agent,
          hostname: url.hostname,
          port: url.port,
          path: `${url.pathname}${url.search}`,
          method: init?.method ?? 'POST',
          headers: {
            ...(init?.headers as Record<string, string> | undefined),
            'content-length': Buffer.byteLength(body),
          },
        },
        (res) => {
          const chunks: Buffer[] = []
          res.on('data', (chunk: Buffer) => chunks.push(chunk))
          res.once('error', reject)
          res.once('end', () => {
            const text = Buffer.concat(chunks).toString('utf8')
            const status = res.statusCode ?? 0
            resolve({
              ok: status >= 200 && status < 300,
              status,
              statusText: res.statusMessage ?? '',
              // Not the global Headers: that would load undici.
              headers: {
                get: (name: string) => {
                  const value = res.headers[name.toLowerCase()]
                  return value === undefined ? null : Array.isArray(value) ? value.join(', ') : value
                },
              },
              body: null,
              text: async () => text,
              json: async () => JSON.parse(text),
            } as unknown as Response)
          })
        },
      )
      const abort = () => req.destroy(signal?.reason instanceof Error ? signal.reason : new Error('aborted'))
      signal?.addEventListener('abort', abort, { once: true })
      req.once('close', () => signal?.removeEventListener('abort', abort))
      req.once('error', reject)
      req.end(body)
    })
  return fetchFn as FetchFn
}
