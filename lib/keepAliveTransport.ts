// Why this hand-written transport is kept rather than viem's `http(url, { batch: true })`: measured
// side by side on the same Anvils, alternating (`npx tsx scripts/bench/transport.ts --duration 2
// --rounds 5`; BENCHMARKS.md, "Balance-read transport"), viem's fetch-based transport did 0.27-0.28x
// the sequential balance reads per second of this one (4-5x the CPU per read, and a setTimeout(0)
// before each batch), 0.39-0.52x the coalesced 8-account reads, and 0.72-0.80x / 0.79-0.85x the
// concurrent alps / blanc quotes. `fetchOptions: { keepalive: true }` did not help (undici keeps
// sockets alive already). Re-run that bench before replacing it. Used by the simulator (its
// Anvils) and by the conformance runner (a target's chains, any EVM node: hence https and the
// fallback when a node refuses batches).
import { Agent } from 'node:http'
import { custom, HttpRequestError, RpcRequestError, TimeoutError, type Transport } from 'viem'
import { BaseError } from './BaseError'
import { type LocalHttpAnswer, type LocalHttpPostParameters, localHttpPost } from './localHttpPost'

/** A JSON-RPC answer that carries an error (viem maps `code` to its RPC error classes). */
export class RpcAnswerError extends BaseError {
  override name = 'Rpc.AnswerError'
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

/** An HTTP failure talking to an RPC (status not 200, no JSON, timeout, connection refused). */
export class RpcHttpError extends BaseError {
  override name = 'Rpc.HttpError'
  /** The HTTP status, when the node answered one. */
  readonly status: number | undefined
  constructor(message: string, parameters: { cause?: unknown; status?: number | undefined } = {}) {
    super(message, parameters.cause === undefined ? {} : { cause: parameters.cause })
    this.status = parameters.status
  }
}

/** No answer within the transport's time limit. */
export class RpcTimeoutError extends RpcHttpError {
  override name = 'Rpc.TimeoutError'
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
  batch?:
    | boolean
    | {
        maxSize?: number | undefined
        wait?: 'microtask' | 'turn' | undefined
        /**
         * `eth_sendRawTransactionSync` goes in the batch of its turn like any request, instead of
         * alone ({@link WAITING_METHODS}): for a node that mines each transaction as it arrives (an
         * automining Anvil), where it holds the batch's other answers back only for the mining,
         * and the transaction shares a round trip with the requests made beside it. Default false.
         */
        waitingInBatch?: boolean | undefined
      }
    | undefined
  /** viem's retries of a failed request (its `shouldRetry`: rate limits, HTTP 5xx, …). Default 0. */
  retryCount?: number | undefined
  /**
   * Fail as viem's own `http()` transport fails (RpcRequestError for a JSON-RPC error,
   * HttpRequestError, TimeoutError) rather than with {@link RpcAnswerError} / {@link RpcHttpError}:
   * viem's retries (its `shouldRetry` reads those classes) and error messages are then those of
   * `http()`. Without it, an error code viem has no class for (3, a revert) becomes an
   * UnknownRpcError, which viem retries. Default false.
   */
  viemErrors?: boolean | undefined
  /**
   * The HTTP hop of an `http://` endpoint, for a caller with a lighter one for an endpoint of its
   * own (the conformance runner's loopback client); default {@link localHttpPost}.
   */
  hop?: ((parameters: LocalHttpPostParameters) => Promise<LocalHttpAnswer>) | undefined
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

/**
 * Methods the node answers only once something happened (eth_sendRawTransactionSync: once the
 * transaction is mined, up to its own time limit): sent alone, or they would hold back every
 * other answer of their batch (unless the batch option `waitingInBatch` says the node mines at once).
 */
const WAITING_METHODS: ReadonlySet<string> = new Set(['eth_sendRawTransactionSync'])

/** What `send` makes of a batch the node refused by its HTTP status. */
const REFUSED = Symbol('refused')

/** Most requests in one JSON-RPC batch (more go in the next POST). */
const DEFAULT_MAX_BATCH = 256

/**
 * A viem transport for a JSON-RPC endpoint: one JSON-RPC request per HTTP POST, for `http://`
 * over keep-alive sockets of `node:http` (the devnet's Anvils, a target's local chains), for
 * `https://` through `fetch` (a remote RPC). viem still builds every call and decodes every
 * answer; only the HTTP hop is lighter than its `http()` transport over `fetch`, whose WHATWG
 * Request, Headers, AbortSignal and stream objects cost about as much CPU as the quote's
 * signature. Without `batch` one `request` is exactly one round trip; with it, the requests of
 * one synchronous run share one (each still gets its own answer or error). A node that refuses
 * a batch whole (one error object, or an HTTP 4xx, instead of an array of answers: it ran none of
 * them) gets them again one per request, and every later request singly.
 */
export function keepAliveTransport(rpcUrl: string, parameters: KeepAliveTransportParameters = {}): Transport {
  const url = new URL(rpcUrl)
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new RpcHttpError(`keepAliveTransport needs an http:// or https:// URL, got ${rpcUrl}.`)
  const agent = url.protocol === 'http:' ? new Agent({ keepAlive: true, maxSockets: 64 }) : undefined
  const timeoutMs = parameters.timeoutMs ?? 10_000
  let id = 0
  /** Set once the node refused a batch: every later request goes alone. */
  let batchRefused = false

  async function answerOf(body: string): Promise<{ status: number; text: string }> {
    if (agent)
      return (parameters.hop ?? localHttpPost)({
        agent,
        url,
        body,
        headers: { 'content-type': 'application/json' },
        timeoutMs,
        timeoutError: () => new RpcTimeoutError(`RPC ${rpcUrl} did not answer within ${timeoutMs} ms.`),
      })
    const response = await fetch(url, {
      method: 'POST',
      body,
      headers: { 'content-type': 'application/json' },
      signal: AbortSignal.timeout(timeoutMs),
    }).catch((error: unknown) => {
      throw (error as Error).name === 'TimeoutError'
        ? new RpcTimeoutError(`RPC ${rpcUrl} did not answer within ${timeoutMs} ms.`)
        : error
    })
    return { status: response.status, text: await response.text() }
  }

  async function post(body: string): Promise<string> {
    let answer: { status: number; text: string }
    try {
      answer = await answerOf(body)
    } catch (error) {
      if (error instanceof RpcHttpError) throw error
      throw new RpcHttpError(`RPC ${rpcUrl}: ${(error as Error).message}`, { cause: error })
    }
    if (answer.status !== 200)
      throw new RpcHttpError(`RPC ${rpcUrl} answered HTTP ${answer.status}: ${answer.text.slice(0, 200)}`, {
        status: answer.status,
      })
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
      const answers = await post(JSON.stringify(batch.map((q) => q.body))).then(parse, (error: unknown) => {
        // Refused by its HTTP status (400 Bad Request, 405, 413, 415, …): sent again one by one.
        // Not 429 (too many requests: viem's retry waits) nor 5xx (it may have run some).
        const status = error instanceof RpcHttpError ? error.status : undefined
        if (status !== undefined && status < 500 && status !== 429) return REFUSED
        throw error
      })
      // A server that refuses batches answers one error object for the whole request (geth: in
      // an array of one, with no id).
      const whole =
        Array.isArray(answers) && answers.length === 1 && batch.length > 1 && answers[0]?.id == null
          ? answers[0]
          : answers
      if (!Array.isArray(whole)) {
        const error = (whole as JsonRpcAnswer | null)?.error
        if (whole !== REFUSED && !error)
          throw new RpcHttpError(
            `RPC ${rpcUrl} answered a JSON-RPC batch with something that is not an array.`,
          )
        batchRefused = true
        for (const q of batch) void single(q.body.method, q.body.params).then(q.resolve, q.reject)
        return
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

  const waitingInBatch = typeof parameters.batch === 'object' && parameters.batch.waitingInBatch === true
  const request = (method: string, params: unknown) =>
    parameters.batch && !batchRefused && (waitingInBatch || !WAITING_METHODS.has(method))
      ? enqueue(method, params)
      : single(method, params)
  /** An error of this module as viem's `http()` throws it. */
  const asViemError = (error: unknown, body: { method: string; params: unknown }) => {
    if (error instanceof RpcAnswerError)
      return new RpcRequestError({
        body,
        error: { code: error.code, message: error.shortMessage, data: error.data },
        url: rpcUrl,
      })
    if (error instanceof RpcTimeoutError) return new TimeoutError({ body, url: rpcUrl })
    if (error instanceof RpcHttpError)
      return new HttpRequestError({
        body,
        cause: error.cause instanceof Error ? error.cause : undefined,
        details: error.shortMessage,
        status: error.status,
        url: rpcUrl,
      })
    return error
  }
  return custom(
    {
      request: ({ method, params }) =>
        parameters.viemErrors
          ? request(method, params).catch((error: unknown) => {
              throw asViemError(error, { method, params })
            })
          : request(method, params),
    },
    { key: 'keepAlive', name: 'Keep-alive HTTP JSON-RPC', retryCount: parameters.retryCount ?? 0 },
  )
}
