import { Agent, request } from 'node:http'
import { custom, type Transport } from 'viem'
import { BaseError } from '../util/BaseError'

/** A JSON-RPC answer that carries an error (viem maps `code` to its RPC error classes). */
export class RpcAnswerError extends BaseError {
  override name = 'Quoting.RpcAnswerError'
  readonly code: number
  readonly data: unknown
  constructor(error: { code: number; message: string; data?: unknown }) {
    super(error.message)
    this.code = error.code
    this.data = error.data
  }
}

/** An HTTP failure talking to a local RPC (status not 200, no JSON, timeout, connection refused). */
export class RpcHttpError extends BaseError {
  override name = 'Quoting.RpcHttpError'
}

/** Parameters of {@link keepAliveTransport}. */
export type KeepAliveTransportParameters = {
  /** Called once per HTTP request, before it is sent. */
  onRoundTrip?: (() => void) | undefined
  /** Milliseconds before a request is abandoned (default 10 000, as viem's http transport). */
  timeoutMs?: number | undefined
}

/**
 * A viem transport for a local `http://` JSON-RPC endpoint (the devnet's Anvils): one JSON-RPC
 * request per HTTP POST over keep-alive sockets of `node:http`. viem still builds every call
 * and decodes every answer; only the HTTP hop is lighter than its `http()` transport over
 * `fetch`, whose WHATWG Request, Headers, AbortSignal and stream objects cost about as much CPU as
 * the quote's signature. No batching, no retries: one `request` is exactly one round trip.
 */
export function keepAliveTransport(rpcUrl: string, parameters: KeepAliveTransportParameters = {}): Transport {
  const url = new URL(rpcUrl)
  if (url.protocol !== 'http:')
    throw new RpcHttpError(`keepAliveTransport needs an http:// URL, got ${rpcUrl}.`)
  const agent = new Agent({ keepAlive: true, maxSockets: 64 })
  const timeoutMs = parameters.timeoutMs ?? 10_000
  const target = { hostname: url.hostname, port: url.port, path: `${url.pathname}${url.search}` }
  let id = 0

  function post(body: string): Promise<string> {
    return new Promise((resolve, reject) => {
      const req = request(
        {
          ...target,
          agent,
          method: 'POST',
          headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) },
        },
        (res) => {
          const chunks: Buffer[] = []
          res.on('data', (chunk: Buffer) => chunks.push(chunk))
          res.on('error', reject)
          res.on('end', () => {
            const text = Buffer.concat(chunks).toString('utf8')
            if (res.statusCode !== 200)
              reject(new RpcHttpError(`RPC ${rpcUrl} answered HTTP ${res.statusCode}: ${text.slice(0, 200)}`))
            else resolve(text)
          })
        },
      )
      req.setTimeout(timeoutMs, () =>
        req.destroy(new RpcHttpError(`RPC ${rpcUrl} did not answer within ${timeoutMs} ms.`)),
      )
      req.on('error', (error) =>
        reject(
          error instanceof RpcHttpError
            ? error
            : new RpcHttpError(`RPC ${rpcUrl}: ${error.message}`, { cause: error }),
        ),
      )
      req.end(body)
    })
  }

  return custom(
    {
      async request({ method, params }) {
        parameters.onRoundTrip?.()
        const text = await post(JSON.stringify({ jsonrpc: '2.0', id: ++id, method, params }))
        let answer: { result?: unknown; error?: { code: number; message: string; data?: unknown } }
        try {
          answer = JSON.parse(text)
        } catch (error) {
          throw new RpcHttpError(`RPC ${rpcUrl} answered something that is not JSON: ${text.slice(0, 200)}`, {
            cause: error,
          })
        }
        if (answer.error) throw new RpcAnswerError(answer.error)
        return answer.result
      },
    },
    { key: 'keepAlive', name: 'Keep-alive HTTP JSON-RPC', retryCount: 0 },
  )
}
