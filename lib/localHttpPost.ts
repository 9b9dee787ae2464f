import { type Agent, type IncomingHttpHeaders, request } from 'node:http'

/** What {@link localHttpPost} hands back: the answer, read whole. */
export type LocalHttpAnswer = {
  status: number
  statusText: string
  headers: IncomingHttpHeaders
  text: string
}

/** Parameters of {@link localHttpPost}. */
export type LocalHttpPostParameters = {
  /** A keep-alive `node:http` agent, one per endpoint (its sockets are reused). */
  agent: Agent
  url: URL
  body: string
  headers?: Record<string, string> | undefined
  /** Abandons the request after this many milliseconds of socket inactivity, with `timeoutError()`. */
  timeoutMs?: number | undefined
  timeoutError?: (() => Error) | undefined
  /** Abandons the request when aborted (its reason is the error). */
  signal?: AbortSignal | undefined
}

/**
 * One HTTP POST to a local `http://` endpoint (the devnet's Anvils) over `node:http`, the answer
 * read whole. The one HTTP hop of our two JSON-RPC paths: keepAliveTransport (quoting's balance
 * reads, the conformance runner's chain clients) and nodeHttpFetch (viem's `fetchFn` for the devnet's clients). Hand-written rather than
 * Node's `fetch` (undici), which builds a dispatcher, WHATWG Request/Response and body streams per
 * request: several times the CPU per call (BENCHMARKS.md, "Balance-read transport", "Fast start").
 *
 * @example
 * const answer = await localHttpPost({ agent, url: new URL(rpcUrl), body: '{"jsonrpc":"2.0",…}' })
 */
export function localHttpPost(parameters: LocalHttpPostParameters): Promise<LocalHttpAnswer> {
  const { agent, url, body, signal } = parameters
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason)
    const req = request(
      {
        agent,
        hostname: url.hostname,
        port: url.port,
        path: `${url.pathname}${url.search}`,
        method: 'POST',
        headers: { ...parameters.headers, 'content-length': Buffer.byteLength(body) },
      },
      (res) => {
        const chunks: Buffer[] = []
        res.on('data', (chunk: Buffer) => chunks.push(chunk))
        res.once('error', reject)
        res.once('end', () =>
          resolve({
            status: res.statusCode ?? 0,
            statusText: res.statusMessage ?? '',
            headers: res.headers,
            text: Buffer.concat(chunks).toString('utf8'),
          }),
        )
      },
    )
    if (parameters.timeoutMs !== undefined)
      req.setTimeout(parameters.timeoutMs, () =>
        req.destroy(parameters.timeoutError?.() ?? new Error(`no answer within ${parameters.timeoutMs} ms`)),
      )
    if (signal) {
      const abort = () => req.destroy(signal.reason instanceof Error ? signal.reason : new Error('aborted'))
      signal.addEventListener('abort', abort, { once: true })
      req.once('close', () => signal.removeEventListener('abort', abort))
    }
    req.once('error', reject)
    req.end(body)
  })
}
