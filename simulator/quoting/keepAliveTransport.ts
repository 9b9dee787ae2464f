// Why this hand-written transport is kept rather than viem's `http(url, { batch: true })`: measured
// side by side on the same Anvils, alternating (`npx tsx scripts/bench/transport.ts --duration 2
// --rounds 5`; BENCHMARKS.md, "Balance-read transport"), viem's fetch-based transport did 0.27-0.28x
// the sequential balance reads per second of this one (4-5x the CPU per read, and a setTimeout(0)
// before each batch), 0.39-0.52x the coalesced 8-account reads, and 0.72-0.80x / 0.79-0.85x the
// concurrent alps / blanc quotes. `fetchOptions: { keepalive: true }` did not help (undici keeps
// sockets alive already). Re-run that bench before replacing it.
import { Agent } from 'node:http'
import { custom, type Transport } from 'viem'
import { localHttpPost } from '../../lib/localHttpPost'
import { BaseError } from '../../spec/BaseError'

/** A JSON-RPC answer that carries an error (viem maps `code` to its RPC error classes). */
export class RpcAnswerError extends BaseError {
  override name = 'Quote.RpcAnswerError'
  readonly code: number
  /** The JSON-RPC error's `data`: revert bytes that viem decodes, so not the structured facts of BaseError. */
  // biome-ignore lint/suspicious/noExplicitAny: revert data is a hex string, where BaseError keeps a record
  override readonly data: any
  constructor(error: { code: number; message: string; data?: unknown }) {
    super(error.message)
    this.code = error.code
    this.data = error.data
  }
}

/** An HTTP failure talking to a local RPC (status not 200, no JSON, timeout, connection refused). */
export class RpcHttpError extends BaseError {
  override name = 'Quote.RpcHttpError'
}

/** Parameters of {@link keepAliveTransport}. */
export type KeepAliveTransportParameters = {
  /** Called once per HTTP request, before it is sent. */
  onRoundTrip?: (() => void) | undefined
  /** Milliseconds before a request is abandoned (default 10 000, as viem's http transport). */
  timeoutMs?: number | undefined
  /**
   * Batch the requests made together: they leave in one HTTP POST carrying a JSON-RPC batch (an
   * array). A lone request is sent as a plain JSON-RPC object. Default false. `wait` says how long
   * a batch gathers (default `'turn'`):
   * - `'microtask'`: the requests of one synchronous run of JavaScript (they leave when it ends).
   *   viem's actions hand their request to the transport after a varying number of awaits, so
   *   `client.call` in a loop shares a round trip, but two actions started side by side may not.
   * - `'turn'`: every request made in this turn of the event loop (they leave on `setImmediate`,
   *   after the I/O callbacks of the turn): side-by-side actions, and the concurrent flows that
   *   the same burst of I/O woke, share a round trip (the simulator's devnet clients; measured in
   *   BENCHMARKS.md, "Simulator round trips"). Each request waits for the end of the turn.
   * The node answers a batch's requests concurrently, not in order: only requests that do not
   * depend on each other are ever in flight together (a caller that needs one answered first
   * awaits it before the next).
   */
  batch?: boolean | { maxSize?: number | undefined; wait?: 'microtask' | 'turn' | undefined } | undefined
}

type JsonRpcAnswer = {
  id?: unknown
  result?: unknown
  error?: { code: number; message: string; data?: unknown }
}
type Queued = {
  body: { jsonrpc: '2.0'; id: number; method: string; params: unknown }
  resolve: (result: unknown) => void
  reject: (error: unknown) => void
}

/** Most requests in one JSON-RPC batch (more go in the next POST). */
const DEFAULT_MAX_BATCH = 256

/**
 * A viem transport for a local `http://` JSON-RPC endpoint (the devnet's Anvils): one JSON-RPC
 * request per HTTP POST over keep-alive sockets of `node:http`. viem still builds every call
 * and decodes every answer; only the HTTP hop is lighter than its `http()` transport over
 * `fetch`, whose WHATWG Request, Headers, AbortSignal and stream objects cost about as much CPU as
 * the quote's signature. No retries. Without `batch` one `request` is exactly one round trip; with
 * it, the requests of one synchronous run share one (each still gets its own answer or error).
 */
export function keepAliveTransport(rpcUrl: string, parameters: KeepAliveTransportParameters = {}): Transport {
  const url = new URL(rpcUrl)
  if (url.protocol !== 'http:')
    throw new RpcHttpError(`keepAliveTransport needs an http:// URL, got ${rpcUrl}.`)
  const agent = new Agent({ keepAlive: true, maxSockets: 64 })
  const timeoutMs = parameters.timeoutMs ?? 10_000
  let id = 0

  async function post(body: string): Promise<string> {
    let answer: Awaited<ReturnType<typeof localHttpPost>>
    try {
      answer = await localHttpPost({
        agent,
        url,
        body,
        headers: { 'content-type': 'application/json' },
        timeoutMs,
        timeoutError: () => new RpcHttpError(`RPC ${rpcUrl} did not answer within ${timeoutMs} ms.`),
      })
    } catch (error) {
      if (error instanceof RpcHttpError) throw error
      throw new RpcHttpError(`RPC ${rpcUrl}: ${(error as Error).message}`, { cause: error })
    }
    if (answer.status !== 200)
      throw new RpcHttpError(`RPC ${rpcUrl} answered HTTP ${answer.status}: ${answer.text.slice(0, 200)}`)
    return answer.text
  }

  const parse = (text: string): unknown => {
    try {
      return JSON.parse(text)
    } catch (error) {
      throw new RpcHttpError(`RPC ${rpcUrl} answered something that is not JSON: ${text.slice(0, 200)}`, {
        cause: error,
      })
    }
  }
  const settle = (answer: JsonRpcAnswer): unknown => {
    if (answer.error) throw new RpcAnswerError(answer.error)
    return answer.result
  }

  async function single(method: string, params: unknown): Promise<unknown> {
    parameters.onRoundTrip?.()
    return settle(
      parse(await post(JSON.stringify({ jsonrpc: '2.0', id: ++id, method, params }))) as JsonRpcAnswer,
    )
  }

  // Batching: the queue being gathered, sent by `gather` (or when full).
  const maxBatch =
    typeof parameters.batch === 'object' ? (parameters.batch.maxSize ?? DEFAULT_MAX_BATCH) : DEFAULT_MAX_BATCH
  const gather =
    typeof parameters.batch === 'object' && parameters.batch.wait === 'microtask'
      ? queueMicrotask
      : setImmediate
  let queue: Queued[] | undefined

  async function send(batch: Queued[]): Promise<void> {
    if (batch.length === 1) {
      const [only] = batch as [Queued]
      return single(only.body.method, only.body.params).then(only.resolve, only.reject)
    }
    parameters.onRoundTrip?.()
    try {
      const answers = parse(await post(JSON.stringify(batch.map((q) => q.body))))
      // A server that refuses batches answers one error object for the whole request.
      if (!Array.isArray(answers)) {
        const error = (answers as JsonRpcAnswer | null)?.error
        throw error
          ? new RpcAnswerError(error)
          : new RpcHttpError(`RPC ${rpcUrl} answered a JSON-RPC batch with something that is not an array.`)
      }
      const byId = new Map<unknown, JsonRpcAnswer>()
      for (const answer of answers as JsonRpcAnswer[]) byId.set(answer?.id, answer)
      for (const q of batch) {
        const answer = byId.get(q.body.id)
        if (!answer)
          q.reject(
            new RpcHttpError(
              `RPC ${rpcUrl} left request ${q.body.id} (${q.body.method}) of a batch unanswered.`,
            ),
          )
        else
          try {
            q.resolve(settle(answer))
          } catch (error) {
            q.reject(error)
          }
      }
    } catch (error) {
      for (const q of batch) q.reject(error)
    }
  }

  function enqueue(method: string, params: unknown): Promise<unknown> {
    return new Promise((resolve, reject) => {
      let current = queue
      if (!current) {
        const fresh: Queued[] = []
        current = fresh
        queue = fresh
        gather(() => {
          if (queue === fresh) queue = undefined
          if (fresh.length) void send(fresh.splice(0))
        })
      }
      current.push({ body: { jsonrpc: '2.0', id: ++id, method, params }, resolve, reject })
      // A full batch leaves now; the gathering callback finds it empty.
      if (current.length >= maxBatch) {
        queue = undefined
        void send(current.splice(0))
      }
    })
  }

  return custom(
    {
      request: ({ method, params }) => (parameters.batch ? enqueue(method, params) : single(method, params)),
    },
    { key: 'keepAlive', name: 'Keep-alive HTTP JSON-RPC', retryCount: 0 },
  )
}
