import { Agent } from 'node:http'
import type { HttpTransportConfig } from 'viem'
import { localHttpPost } from './localHttpPost'

/** What viem's http transport calls instead of `fetch` (its `fetchFn`). */
export type FetchFn = NonNullable<HttpTransportConfig['fetchFn']>

/**
 * A `fetch` for viem's `http` transport to an `http://` JSON-RPC endpoint (the devnet's Anvils,
 * a target's chains as the conformance runner reads them), over `node:http` keep-alive sockets. viem keeps doing everything else (batching,
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
  const fetchFn = async (input: string | URL | Request, init?: RequestInit) => {
    const url = new URL(typeof input === 'string' || input instanceof URL ? input : input.url)
    const answer = await localHttpPost({
      agent,
      url,
      body: typeof init?.body === 'string' ? init.body : '',
      headers: init?.headers as Record<string, string> | undefined,
      signal: init?.signal ?? undefined,
    })
    return {
      ok: answer.status >= 200 && answer.status < 300,
      status: answer.status,
      statusText: answer.statusText,
      // Not the global Headers: that would load undici.
      headers: {
        get: (name: string) => {
          const value = answer.headers[name.toLowerCase()]
          return value === undefined ? null : Array.isArray(value) ? value.join(', ') : value
        },
      },
      body: null,
      text: async () => answer.text,
      json: async () => JSON.parse(answer.text),
    } as unknown as Response
  }
  return fetchFn as FetchFn
}
