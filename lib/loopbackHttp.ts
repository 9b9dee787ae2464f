import { STATUS_CODES } from 'node:http'
import { connect, type Socket } from 'node:net'
import { type LocalHttpAnswer, type LocalHttpPostParameters, localHttpPost } from './localHttpPost'

/** An answer as node:http's client would hand it over: status, headers as its `res.headers`, the raw body. */
export type LoopbackAnswer = {
  status: number
  headers: Record<string, string | string[]>
  body: Buffer
}

/** Parameters of {@link loopbackExchange}. */
export type LoopbackExchangeParameters = {
  method: string
  host: string
  port: number
  /** The request target: path and query, as on the request line. */
  path: string
  headers: Record<string, string>
  body?: string | undefined
  /** Rejects with this when the answer is over it (its bytes are dropped). */
  maxBodyBytes: number
  /** Called with each socket the exchange uses, so the caller's deadline can destroy it. */
  onSocket?: ((socket: Socket) => void) | undefined
  /** Fails the exchange with `timeoutError()` after this long without a byte either way (node:http's `setTimeout`). */
  idleTimeoutMs?: number | undefined
  timeoutError?: (() => Error) | undefined
}

/** Idle keep-alive sockets by `host:port` (a run talks to one simulator), each with the release of its idle watch. */
const idle = new Map<string, { socket: Socket; release: () => void }[]>()

/** A header name (RFC 9110 token) and value as node:http accepts them (else it throws; so does this, see {@link canSend}). */
const TOKEN = /^[\w!#$%&'*+.^`|~-]+$/
const INVALID_VALUE = /[^\t\x20-\x7e\x80-\xff]/

/** Methods node:http sends without a body as they are (no framing header of its own). */
const BODILESS = new Set(['GET', 'HEAD', 'DELETE', 'OPTIONS', 'TRACE', 'CONNECT'])

/**
 * Whether {@link loopbackExchange} sends a request exactly as node:http's client would: header
 * names and values node:http accepts, a method and path without spaces or line breaks. Anything
 * else goes through node:http, which refuses it (or sends it) in its own way.
 *
 * @example
 * canSend('GET', '/health', { 'x-api-key': 'k' }, false) // true
 */
export function canSend(
  method: string,
  path: string,
  headers: Record<string, string>,
  hasBody: boolean,
): boolean {
  if (!TOKEN.test(method) || !/^\/[\x21-\x7e]*$/.test(path)) return false
  // Without a body node:http frames some methods itself (chunked, or a length of 0).
  if (!hasBody && !BODILESS.has(method)) return false
  for (const name of Object.keys(headers)) {
    const lower = name.toLowerCase()
    // Framing and connection headers stay node:http's to write (it may also refuse them).
    if (
      lower === 'host' ||
      lower === 'connection' ||
      lower === 'transfer-encoding' ||
      lower === 'content-length'
    )
      return false
    if (!TOKEN.test(name) || INVALID_VALUE.test(headers[name]!)) return false
  }
  return true
}

/**
 * One HTTP/1.1 exchange with a server on this machine that this process's own code started (the
 * conformance runner's simulator, the devnet's Anvils), over a kept-alive socket: the request as node:http's keep-alive client writes it
 * (`Host`, `Connection: keep-alive`, the headers, `Content-Length`), the answer read whole
 * (`Content-Length`, chunked, or to the end) and its headers combined as node:http combines them.
 * node:http's client costs ~3x the CPU per exchange until the process has made thousands of
 * them (its client, agent and streams are a lot of code to warm up); a run makes ~400. undici's
 * Client, the well-kept alternative, costs more still when cold (800 POSTs of ~400 bytes, two at
 * a time, to a node:http server in another process: 270-320 µs of client CPU per request against
 * node:http's 210-260; 2026-11-26), hence this hand-written fast path for our own servers only.
 * conformance/runner/loopbackHttp.test.ts checks both give the same answers, on the same server, for the shapes a
 * server sends (lengths, chunks, duplicate and list headers, 204, HEAD, a close).
 *
 * @example
 * const answer = await loopbackExchange({ method: 'GET', host: '127.0.0.1', port, path: '/health', headers: {}, maxBodyBytes: 1 << 20 })
 */
export function loopbackExchange(parameters: LoopbackExchangeParameters): Promise<LoopbackAnswer> {
  const { method, host, port, path, headers, body, maxBodyBytes } = parameters
  const key = `${host}:${port}`
  let pool = idle.get(key)
  if (!pool) {
    pool = []
    idle.set(key, pool)
  }
  const kept = pool.pop()
  const socket = kept?.socket ?? connect({ host, port, noDelay: true })
  kept?.release()
  // An idle socket does not keep the process alive (as node:http's agent unrefs its free sockets).
  socket.ref()
  parameters.onSocket?.(socket)
  // As node:http writes it: the caller's headers in order, its content-length, then Host (the
  // port unless 80) and Connection.
  let head = `${method} ${path} HTTP/1.1\r\n`
  for (const name of Object.keys(headers)) head += `${name}: ${headers[name]}\r\n`
  if (body !== undefined) head += `content-length: ${Buffer.byteLength(body)}\r\n`
  head += `Host: ${host.includes(':') ? `[${host}]` : host}${port === 80 ? '' : `:${port}`}\r\nConnection: keep-alive\r\n\r\n`

  return new Promise<LoopbackAnswer>((resolve, reject) => {
    const reader = answerReader(method, maxBodyBytes)
    let settled = false
    let written = false
    const detach = () => {
      socket.off('data', onData).off('end', onEnd).off('error', fail).off('close', onClose)
      if (parameters.idleTimeoutMs !== undefined) socket.setTimeout(0).off('timeout', onIdle)
    }
    function fail(error: Error) {
      if (settled) return
      settled = true
      detach()
      socket.destroy()
      reject(error)
    }
    function finish(answer: LoopbackAnswer, keepAlive: boolean) {
      if (settled) return
      settled = true
      detach()
      // Kept for the next request once the request was all written and the server keeps the
      // connection; a close, end or error while idle (the server ended it) drops it.
      if (keepAlive && written && !socket.readableEnded) {
        const entry = {
          socket,
          release: () => socket.off('close', drop).off('end', drop).off('error', drop),
        }
        const drop = () => {
          entry.release()
          const at = pool!.indexOf(entry)
          if (at !== -1) pool!.splice(at, 1)
          socket.destroy()
        }
        socket.on('close', drop).on('end', drop).on('error', drop)
        socket.unref()
        pool!.push(entry)
      } else socket.destroy()
      resolve(answer)
    }
    function onData(chunk: Buffer) {
      let complete: ReturnType<typeof reader.push>
      try {
        complete = reader.push(chunk)
      } catch (error) {
        return fail(error as Error)
      }
      if (complete) finish(complete.answer, complete.keepAlive)
    }
    function onEnd() {
      const complete = reader.end()
      if (complete) finish(complete.answer, false)
      else fail(new Error('socket hang up'))
    }
    function onClose() {
      fail(new Error('socket hang up'))
    }
    function onIdle() {
      fail(parameters.timeoutError?.() ?? new Error(`no answer within ${parameters.idleTimeoutMs} ms`))
    }
    socket.on('data', onData).on('end', onEnd).on('error', fail).on('close', onClose)
    if (parameters.idleTimeoutMs !== undefined)
      socket.setTimeout(parameters.idleTimeoutMs).on('timeout', onIdle)
    const sent = () => {
      written = true
    }
    socket.cork()
    if (body === undefined || body.length === 0) socket.write(head, 'latin1', sent)
    else {
      socket.write(head, 'latin1')
      socket.write(body, 'utf8', sent)
    }
    socket.uncork()
  })
}

/** Header fields node:http keeps only the first of (node's _http_incoming.js matchKnownFields). */
const FIRST_ONLY = new Set([
  'content-type',
  'content-length',
  'user-agent',
  'referer',
  'host',
  'authorization',
  'proxy-authorization',
  'if-modified-since',
  'if-unmodified-since',
  'from',
  'location',
  'max-forwards',
  'retry-after',
  'etag',
  'last-modified',
  'server',
  'age',
  'expires',
])

/** A field added to headers as node:http's IncomingMessage adds it (`_addHeaderLine`). */
function addHeader(headers: Record<string, string | string[]>, name: string, value: string): void {
  const existing = headers[name]
  if (existing === undefined) headers[name] = name === 'set-cookie' ? [value] : value
  else if (name === 'set-cookie') (existing as string[]).push(value)
  else if (FIRST_ONLY.has(name)) return
  else headers[name] = `${existing}${name === 'cookie' ? '; ' : ', '}${value}`
}

/** Reads one answer from the bytes as they come: `push` each chunk, `end` at the socket's end; each returns it once complete. */
function answerReader(method: string, maxBodyBytes: number) {
  let buffered: Buffer = Buffer.alloc(0)
  let parsed: { status: number; headers: Record<string, string | string[]>; keepAlive: boolean } | undefined
  let framing: { kind: 'length'; length: number } | { kind: 'chunked' } | { kind: 'close' } | undefined
  const body: Buffer[] = []
  let bodyBytes = 0
  const keep = (chunk: Buffer) => {
    bodyBytes += chunk.length
    if (bodyBytes > maxBodyBytes)
      throw new Error(`the response body is over ${maxBodyBytes / 1024 / 1024} MiB`)
    body.push(chunk)
  }
  const done = () => ({
    answer: { status: parsed!.status, headers: parsed!.headers, body: Buffer.concat(body) },
    keepAlive: parsed!.keepAlive,
  })
  /** The head, once it is all in; 1xx answers before it are skipped, as node:http skips them. */
  const readHead = (): boolean => {
    for (;;) {
      const end = buffered.indexOf('\r\n\r\n')
      if (end === -1) {
        if (buffered.length > 80 * 1024) throw new Error('Parse Error: Header overflow')
        return false
      }
      const lines = buffered.toString('latin1', 0, end).split('\r\n')
      buffered = buffered.subarray(end + 4)
      const status = /^HTTP\/1\.([01]) (\d{3})(?: |$)/.exec(lines[0]!)
      if (!status) throw new Error('Parse Error: Invalid response status')
      const code = Number(status[2])
      if (code >= 100 && code < 200 && code !== 101) continue
      const headers: Record<string, string | string[]> = {}
      for (const line of lines.slice(1)) {
        const colon = line.indexOf(':')
        if (colon <= 0) throw new Error('Parse Error: Invalid header value char')
        addHeader(headers, line.slice(0, colon).toLowerCase(), line.slice(colon + 1).trim())
      }
      const connection = String(headers.connection ?? '').toLowerCase()
      const keepAlive = status[1] === '1' ? !/\bclose\b/.test(connection) : /\bkeep-alive\b/.test(connection)
      parsed = { status: code, headers, keepAlive }
      const transfer = String(headers['transfer-encoding'] ?? '').toLowerCase()
      if (method === 'HEAD' || code === 204 || code === 304) framing = { kind: 'length', length: 0 }
      else if (/\bchunked\s*$/.test(transfer)) framing = { kind: 'chunked' }
      else if (headers['content-length'] !== undefined) {
        const length = Number(headers['content-length'])
        if (!/^\d+$/.test(String(headers['content-length'])))
          throw new Error('Parse Error: Invalid content-length')
        framing = { kind: 'length', length }
      } else {
        framing = { kind: 'close' }
        parsed.keepAlive = false
      }
      return true
    }
  }
  /** Chunks of a chunked body from `buffered`; true once the last chunk and its trailers are in. */
  const readChunks = (): boolean => {
    for (;;) {
      const line = buffered.indexOf('\r\n')
      if (line === -1) return false
      const sizeText = buffered.toString('latin1', 0, line).split(';')[0]!.trim()
      if (!/^[0-9a-fA-F]+$/.test(sizeText)) throw new Error('Parse Error: Invalid character in chunk size')
      const size = Number.parseInt(sizeText, 16)
      if (size === 0) {
        // The trailer section (not headers: node:http keeps it apart) ends with an empty line.
        const rest = buffered.subarray(line + 2)
        return rest.toString('latin1', 0, 2) === '\r\n' || rest.indexOf('\r\n\r\n') !== -1
      }
      if (buffered.length < line + 2 + size + 2) return false
      keep(buffered.subarray(line + 2, line + 2 + size))
      buffered = buffered.subarray(line + 2 + size + 2)
    }
  }
  return {
    push(chunk: Buffer) {
      buffered = buffered.length === 0 ? chunk : Buffer.concat([buffered, chunk])
      if (!parsed && !readHead()) return undefined
      if (framing!.kind === 'length') {
        const take = buffered.subarray(0, framing!.length - bodyBytes)
        if (take.length > 0) keep(take)
        buffered = buffered.subarray(take.length)
        return bodyBytes === framing!.length ? done() : undefined
      }
      if (framing!.kind === 'chunked') return readChunks() ? done() : undefined
      if (buffered.length > 0) keep(buffered)
      buffered = Buffer.alloc(0)
      return undefined
    },
    /** The answer when the socket's end completes it (a body read to the end), else undefined. */
    end() {
      return parsed && framing?.kind === 'close' ? done() : undefined
    },
  }
}

/**
 * lib/localHttpPost.ts's POST (a JSON-RPC hop of keepAliveTransport) over {@link loopbackExchange}:
 * for chains started on this machine by our own code: the devnet's Anvils (the simulator's chain
 * and balance clients) and the chains of the conformance runner's own simulator
 * (conformance/runner/chainClients.ts). The same request and answer; the agent is not used (the
 * lean client keeps its own sockets). An `https:` URL, an abort signal or a request node:http
 * would frame itself goes to localHttpPost. In a fresh process (as the simulator child of a
 * conformance run) a JSON-RPC round trip through keepAliveTransport cost 215-260 µs of client
 * CPU over this against 385-395 µs over node:http (400 round trips to an Anvil, 4 alternating
 * pairs, `npx tsx scripts/bench/hop.ts`; BENCHMARKS.md, "the simulator child's chain work").
 *
 * @example
 * keepAliveTransport(rpcUrl, { hop: loopbackPost })
 */
export async function loopbackPost(parameters: LocalHttpPostParameters): Promise<LocalHttpAnswer> {
  const { url, body } = parameters
  const headers = { ...parameters.headers }
  const path = `${url.pathname}${url.search}`
  if (url.protocol !== 'http:' || parameters.signal || !canSend('POST', path, headers, true))
    return localHttpPost(parameters)
  const answer = await loopbackExchange({
    method: 'POST',
    host: url.hostname.replace(/^\[(.*)\]$/, '$1'),
    port: Number(url.port || 80),
    path,
    headers,
    body,
    maxBodyBytes: Number.POSITIVE_INFINITY,
    idleTimeoutMs: parameters.timeoutMs,
    timeoutError: parameters.timeoutError,
  })
  return {
    status: answer.status,
    statusText: STATUS_CODES[answer.status] ?? '',
    headers: answer.headers,
    text: answer.body.toString('utf8'),
  }
}
