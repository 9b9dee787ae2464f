import { STATUS_CODES } from 'node:http'
import { connect as netConnect, type Socket } from 'node:net'
import { connect as tlsConnect } from 'node:tls'

/**
 * The recording proxy's hot path: one client connection relayed to one connection to the target,
 * HTTP/1.1 parsed just enough to find where each message ends. A request is rewritten only where
 * the proxy must (its `Host`, hop-by-hop headers, a webhook URL in its body); the answer goes back
 * to the client byte for byte as the target sent it (status line, header case and order, chunking)
 * while a copy of its body is kept for the recording. Requests on a connection are relayed one at
 * a time, in order, as HTTP/1.1 requires of answers.
 *
 * Node's HTTP server and client did the same at about three times the CPU a request (two parsers,
 * header objects, streams and an agent per exchange); see BENCHMARKS.md, "Record and replay".
 */

/** A request's head as the client sent it. */
export type RequestHead = {
  method: string
  /** The request target: path and query. */
  path: string
  /** Lower-case names; a repeated header's values joined with `, `. */
  headers: Record<string, string>
  /** The header lines as written (`Name: value`), forwarded in this order and case. */
  lines: string[]
}

/** An answer the proxy makes itself. */
export type LocalAnswer = { status: number; headers: Record<string, string>; body: Buffer | string }

/** One request relayed to the target and its answer (or why there was none). */
export type RelayedExchange = {
  head: RequestHead
  /** `performance.now()` when the request was complete, and when its answer was. */
  started: number
  ended: number
  /** The body sent to the target (after any rewrite). */
  requestBody: Buffer
  status?: number | undefined
  /** The answer's headers, lower-case names. */
  responseHeaders: Record<string, string>
  /** The answer's body as the client got it (de-chunked). */
  responseBody: Buffer
  error?: string | undefined
}

/** What the recorder decides for each request. */
export type RelayHandlers<Token> = {
  target: URL
  /** An answer made by the proxy (its `/_record/` paths), or undefined to relay to the target. */
  local(head: RequestHead): ((body: Buffer) => Promise<LocalAnswer>) | undefined
  /** A request about to be relayed: what {@link RelayHandlers.done} gets back (the recorder's sequence number). */
  begin(head: RequestHead): Token
  /** The body to send instead of the client's, or undefined to send it as is. */
  rewriteRequest(head: RequestHead, body: Buffer): Buffer | undefined
  /** Whether the answer must be read whole and given to {@link RelayHandlers.rewriteResponse}. */
  rewritesResponse(head: RequestHead): boolean
  rewriteResponse(status: number, headers: Record<string, string>, body: Buffer): Buffer
  done(exchange: RelayedExchange, token: Token): void
}

/** A relayed connection, as the server that accepted it sees it. */
export type Relay = {
  /** No request in flight. */
  idle(): boolean
  /** Ends the connection once the exchange in flight (if any) is answered. */
  close(): void
  /** Resolves when the client's connection is closed and no exchange is in flight (all were handed to `done`). */
  closed: Promise<void>
}

/** Headers the proxy does not pass on (hop by hop, or recomputed). */
export const HOP_HEADERS = new Set([
  'connection',
  'keep-alive',
  'proxy-connection',
  'transfer-encoding',
  'upgrade',
  'host',
  'content-length',
  'accept-encoding',
  'te',
  'trailer',
  'expect',
])

const HEAD_END = Buffer.from('\r\n\r\n')
const MAX_HEAD = 64 * 1024
const ANSWER_TIMEOUT_MS = 120_000
/** An answer of a known length up to this size is passed on in one write, once whole. */
const HOLD_BYTES = 256 * 1024
const EMPTY: Buffer = Buffer.alloc(0)

type Request = { head: RequestHead; body: Buffer; hasBody: boolean; close: boolean }
type Framing =
  | { kind: 'none' }
  | { kind: 'length'; remaining: number }
  | { kind: 'chunked'; state: 'size' | 'data' | 'crlf' | 'trailer'; remaining: number }
  | { kind: 'close' }

/**
 * Relays one client connection to the target.
 *
 * @example
 * net.createServer((socket) => relayConnection(socket, handlers)).listen(4001)
 */
export function relayConnection<Token>(client: Socket, handlers: RelayHandlers<Token>): Relay {
  const target = handlers.target
  const tls = target.protocol === 'https:'
  const port = Number(target.port || (tls ? 443 : 80))
  const hostname = target.hostname.replace(/^\[|\]$/g, '')
  const hostLine = `host: ${target.host}\r\n`
  let input: Buffer = EMPTY
  let busy = false
  let closing = false
  let clientEnded = false
  let continued = false
  let upstream: Socket | undefined
  let tunnel = false
  let clientGone = false
  let resolveClosed: () => void = () => {}
  const closed = new Promise<void>((resolve) => {
    resolveClosed = resolve
  })

  // The exchange in flight.
  let request: Request | undefined
  let token: Token
  let started = 0
  let rewrite = false
  let pending: Buffer = EMPTY
  let phase: 'head' | 'body' = 'head'
  let status: number | undefined
  let responseHeaders: Record<string, string> = {}
  let responseHead: Buffer = EMPTY
  let framing: Framing = { kind: 'none' }
  let pieces: Buffer[] = []
  let sentToClient = false
  let held: Buffer[] = []
  let heldBytes = 0
  let upstreamCloses = false

  client.setNoDelay(true)
  /** Ends the proxy's side; a client that keeps its side open past a moment is cut (the socket is half-open). */
  let ending = false
  const endClient = () => {
    if (ending) return
    ending = true
    // Once all that was written has left, the client has a moment to close its side.
    client.end(() => setTimeout(() => client.destroy(), 2_000).unref())
  }
  client.on('data', (chunk: Buffer) => {
    if (tunnel) {
      upstream?.write(chunk)
      return
    }
    input = input.length === 0 ? chunk : Buffer.concat([input, chunk])
    if (!busy) next()
  })
  client.on('end', () => {
    clientEnded = true
    if (!busy) endClient()
  })
  client.on('error', () => client.destroy())
  client.on('close', () => {
    clientGone = true
    // An exchange in flight still ends (and is recorded) though its client left.
    if (busy) return
    upstream?.destroy()
    resolveClosed()
  })

  function next(): void {
    if (closing) {
      endClient()
      return
    }
    const parsed = parseRequest()
    if (parsed === undefined) {
      if (clientEnded) endClient()
      return
    }
    if (typeof parsed === 'string') {
      writeAnswer({ status: parsed === 'too large' ? 431 : 400, headers: {}, body: '' }, true)
      return
    }
    busy = true
    client.pause()
    const local = handlers.local(parsed.head)
    if (local) {
      local(parsed.body).then(
        (answer) => {
          writeAnswer(answer, parsed.close)
          settle(parsed.close)
        },
        (error: unknown) => {
          writeAnswer(
            {
              status: 502,
              headers: { 'content-type': 'application/json' },
              body: JSON.stringify({ error: 'recorder', message: String(error) }),
            },
            parsed.close,
          )
          settle(parsed.close)
        },
      )
      return
    }
    relay(parsed)
  }

  /** Takes one whole request off `input`: undefined when it is not all there yet. */
  function parseRequest(): Request | 'bad' | 'too large' | undefined {
    while (input.length >= 2 && input[0] === 13 && input[1] === 10) input = input.subarray(2)
    const end = input.indexOf(HEAD_END)
    if (end < 0) return input.length > MAX_HEAD ? 'too large' : undefined
    const text = input.toString('latin1', 0, end)
    const lines = text.split('\r\n')
    const first = lines[0]!.split(' ')
    if (first.length !== 3 || !first[2]!.startsWith('HTTP/')) return 'bad'
    const headers: Record<string, string> = {}
    const kept: string[] = []
    for (let i = 1; i < lines.length; i++) {
      const line = lines[i]!
      const colon = line.indexOf(':')
      if (colon <= 0) return 'bad'
      const name = line.slice(0, colon).trim().toLowerCase()
      const value = line.slice(colon + 1).trim()
      headers[name] = headers[name] === undefined ? value : `${headers[name]}, ${value}`
      kept.push(line)
    }
    const head: RequestHead = { method: first[0]!, path: first[1]!, headers, lines: kept }
    let bodyEnd = end + 4
    let body = EMPTY
    const chunked = /chunked/i.test(headers['transfer-encoding'] ?? '')
    if (chunked) {
      const parts: Buffer[] = []
      let at = end + 4
      for (;;) {
        const lineEnd = input.indexOf('\r\n', at)
        if (lineEnd < 0) return waitForBody(headers)
        const size = Number.parseInt(input.toString('latin1', at, lineEnd).split(';')[0]!, 16)
        if (Number.isNaN(size)) return 'bad'
        if (size === 0) {
          // Trailers (ignored) end with an empty line.
          const trailerEnd = input.indexOf('\r\n', lineEnd + 2)
          if (trailerEnd < 0) return waitForBody(headers)
          if (trailerEnd === lineEnd + 2) bodyEnd = trailerEnd + 2
          else {
            const all = input.indexOf(HEAD_END, lineEnd)
            if (all < 0) return waitForBody(headers)
            bodyEnd = all + 4
          }
          break
        }
        if (input.length < lineEnd + 2 + size + 2) return waitForBody(headers)
        parts.push(input.subarray(lineEnd + 2, lineEnd + 2 + size))
        at = lineEnd + 2 + size + 2
      }
      body = Buffer.concat(parts)
    } else if (headers['content-length'] !== undefined) {
      const length = Number(headers['content-length'])
      if (!Number.isInteger(length) || length < 0) return 'bad'
      if (input.length < end + 4 + length) return waitForBody(headers)
      body = input.subarray(end + 4, end + 4 + length)
      bodyEnd = end + 4 + length
    }
    input = input.subarray(bodyEnd)
    continued = false
    const connection = (headers.connection ?? '').toLowerCase()
    const close = first[2] === 'HTTP/1.0' ? !connection.includes('keep-alive') : connection.includes('close')
    return { head, body, hasBody: chunked || headers['content-length'] !== undefined, close }
  }

  function waitForBody(headers: Record<string, string>): undefined {
    // The client waits for this before it sends the body (the target never sees `expect`).
    if (!continued && /100-continue/i.test(headers.expect ?? '')) {
      continued = true
      client.write('HTTP/1.1 100 Continue\r\n\r\n')
    }
    return undefined
  }

  function relay(parsed: Request): void {
    request = parsed
    started = performance.now()
    token = handlers.begin(parsed.head)
    const body = handlers.rewriteRequest(parsed.head, parsed.body) ?? parsed.body
    request.body = body
    rewrite = handlers.rewritesResponse(parsed.head)
    pending = EMPTY
    phase = 'head'
    status = undefined
    responseHeaders = {}
    pieces = []
    sentToClient = false
    upstreamCloses = false
    let head = `${parsed.head.method} ${parsed.head.path} HTTP/1.1\r\n${hostLine}`
    for (const line of parsed.head.lines) {
      const name = line.slice(0, line.indexOf(':')).trim().toLowerCase()
      if (!HOP_HEADERS.has(name)) head += `${line}\r\n`
    }
    if (parsed.hasBody || body.length > 0) head += `content-length: ${body.length}\r\n`
    head += '\r\n'
    const socket = upstream && !upstream.destroyed ? upstream : connectUpstream()
    socket.setTimeout(ANSWER_TIMEOUT_MS)
    socket.write(
      body.length > 0 ? Buffer.concat([Buffer.from(head, 'latin1'), body]) : Buffer.from(head, 'latin1'),
    )
  }

  function connectUpstream(): Socket {
    const socket = tls
      ? tlsConnect({ host: hostname, port, servername: hostname })
      : netConnect({ host: hostname, port })
    socket.setNoDelay(true)
    upstream = socket
    socket.on('data', (chunk: Buffer) => {
      if (socket !== upstream) return
      if (tunnel) {
        client.write(chunk)
        return
      }
      if (!busy || !request) {
        // Nothing was asked: the target speaks out of turn.
        socket.destroy()
        return
      }
      // The bytes go on as they came; they are parsed only to find the answer's end and keep a
      // copy of its body. An answer of a known, small length is held until whole and goes out in
      // one write (a target often writes head and body apart: one write and one wake-up of the
      // client saved); a chunked or unbounded one (a stream) goes on as it arrives. An answer that
      // is rewritten goes out whole when complete.
      if (!rewrite) {
        held.push(chunk)
        heldBytes += chunk.length
      }
      try {
        answer(chunk)
      } catch (error) {
        fail(error instanceof Error ? error.message : String(error))
        return
      }
      if (
        heldBytes > 0 &&
        (phase === 'body' ? framing.kind !== 'length' || heldBytes > HOLD_BYTES : heldBytes > HOLD_BYTES)
      )
        flushHeld()
    })
    socket.on('timeout', () => {
      if (socket === upstream && busy) fail(`no answer within ${ANSWER_TIMEOUT_MS / 1000} s`)
      else socket.destroy()
    })
    socket.on('error', (error) => {
      if (socket === upstream && busy && request) fail(error.message)
      socket.destroy()
    })
    socket.on('close', () => {
      if (socket !== upstream) return
      upstream = undefined
      if (tunnel) client.destroy()
      else if (busy && request) {
        if (phase === 'body' && framing.kind === 'close') complete()
        else fail('the target closed the connection before it answered')
      } else if (!busy) endClient() // The target closed an idle connection: so does the proxy.
    })
    return socket
  }

  /** Takes bytes of the answer in flight (already passed on, unless the answer is rewritten). */
  function answer(chunk: Buffer): void {
    pending = pending.length === 0 ? chunk : Buffer.concat([pending, chunk])
    while (pending.length > 0 && busy) {
      if (phase === 'head') {
        const end = pending.indexOf(HEAD_END)
        if (end < 0) {
          if (pending.length > MAX_HEAD) throw new Error('the answer has no end of head within 64 KiB')
          return
        }
        const bytes = pending.subarray(0, end + 4)
        const lines = pending.toString('latin1', 0, end).split('\r\n')
        const code = Number(lines[0]!.split(' ')[1])
        if (!Number.isInteger(code)) throw new Error(`not an HTTP answer: ${lines[0]}`)
        pending = pending.subarray(end + 4)
        if (code >= 100 && code < 200 && code !== 101) continue
        const headers: Record<string, string> = {}
        for (let i = 1; i < lines.length; i++) {
          const line = lines[i]!
          const colon = line.indexOf(':')
          if (colon <= 0) continue
          const name = line.slice(0, colon).trim().toLowerCase()
          const value = line.slice(colon + 1).trim()
          headers[name] = headers[name] === undefined ? value : `${headers[name]}, ${value}`
        }
        status = code
        responseHeaders = headers
        responseHead = bytes
        upstreamCloses = /close/i.test(headers.connection ?? '')
        if (code === 101) {
          tunnel = true
          flushHeld()
          if (input.length > 0) upstream?.write(input)
          input = EMPTY
          pending = EMPTY
          finishExchange()
          client.resume()
          return
        }
        if (request!.head.method === 'HEAD' || code === 204 || code === 304) framing = { kind: 'none' }
        else if (/chunked/i.test(headers['transfer-encoding'] ?? ''))
          framing = { kind: 'chunked', state: 'size', remaining: 0 }
        else if (headers['content-length'] !== undefined)
          framing = { kind: 'length', remaining: Number(headers['content-length']) }
        else framing = { kind: 'close' }
        phase = 'body'
        if (framing.kind === 'none' || (framing.kind === 'length' && framing.remaining === 0)) {
          complete()
          return
        }
        continue
      }
      // The body.
      if (framing.kind === 'length') {
        const take = Math.min(framing.remaining, pending.length)
        const piece = pending.subarray(0, take)
        pieces.push(piece)
        framing.remaining -= take
        pending = pending.subarray(take)
        if (framing.remaining === 0) complete()
        return
      }
      if (framing.kind === 'close') {
        pieces.push(pending)
        pending = EMPTY
        return
      }
      if (framing.kind === 'chunked') {
        const consumed = chunkedStep(framing)
        if (consumed === 0) return
        pending = pending.subarray(consumed)
        if (framing.state === 'trailer' && framing.remaining === -1) {
          complete()
          return
        }
        continue
      }
      return
    }
  }

  /** Reads one step of chunked framing from `pending`; the bytes it used (0: wait for more). */
  function chunkedStep(f: Extract<Framing, { kind: 'chunked' }>): number {
    if (f.state === 'size') {
      const end = pending.indexOf('\r\n')
      if (end < 0) return 0
      const size = Number.parseInt(pending.toString('latin1', 0, end).split(';')[0]!, 16)
      if (Number.isNaN(size)) throw new Error('a malformed chunk size in the answer')
      f.remaining = size
      f.state = size === 0 ? 'trailer' : 'data'
      return end + 2
    }
    if (f.state === 'data') {
      const take = Math.min(f.remaining, pending.length)
      pieces.push(pending.subarray(0, take))
      f.remaining -= take
      if (f.remaining === 0) f.state = 'crlf'
      return take
    }
    if (f.state === 'crlf') {
      if (pending.length < 2) return 0
      f.state = 'size'
      return 2
    }
    // Trailer lines until an empty one; `remaining = -1` marks the end.
    const end = pending.indexOf('\r\n')
    if (end < 0) return 0
    if (end === 0) f.remaining = -1
    return end + 2
  }

  function flushHeld(): void {
    if (heldBytes === 0) return
    const bytes = held.length === 1 ? held[0]! : Buffer.concat(held)
    held = []
    heldBytes = 0
    send(bytes)
  }

  function send(bytes: Buffer): void {
    sentToClient = true
    if (clientGone) return
    if (!client.write(bytes) && upstream) {
      const socket = upstream
      socket.pause()
      client.once('drain', () => socket.resume())
    }
  }

  /** The answer in flight is whole. */
  function complete(): void {
    flushHeld()
    const body = pieces.length === 1 ? pieces[0]! : Buffer.concat(pieces)
    let delivered = body
    if (rewrite) {
      delivered = handlers.rewriteResponse(status!, responseHeaders, body)
      const lines = responseHead.toString('latin1', 0, responseHead.length - 4).split('\r\n')
      let head = `${lines[0]}\r\n`
      for (let i = 1; i < lines.length; i++) {
        const name = lines[i]!.slice(0, lines[i]!.indexOf(':')).trim().toLowerCase()
        if (name !== 'content-length' && name !== 'transfer-encoding') head += `${lines[i]}\r\n`
      }
      head += `content-length: ${delivered.length}\r\n\r\n`
      send(Buffer.concat([Buffer.from(head, 'latin1'), delivered]))
    }
    const closeAfter = request!.close || upstreamCloses || framing.kind === 'close'
    reportExchange(delivered)
    pending = EMPTY
    if (upstreamCloses || framing.kind === 'close') {
      const socket = upstream
      upstream = undefined
      socket?.destroy()
    } else upstream?.setTimeout(0)
    settle(closeAfter)
  }

  /** The exchange in flight got no (whole) answer. */
  function fail(message: string): void {
    // Held bytes never reached the client: it gets the 502 instead.
    held = []
    heldBytes = 0
    const socket = upstream
    upstream = undefined
    socket?.destroy()
    const failed = request!
    handlers.done(
      {
        head: failed.head,
        started,
        ended: performance.now(),
        requestBody: failed.body,
        status: undefined,
        responseHeaders: {},
        responseBody: EMPTY,
        error: message,
      },
      token,
    )
    if (sentToClient || clientGone) {
      // Part of the answer is out: the client must see it cut, as it would from the target.
      request = undefined
      busy = false
      if (clientGone) resolveClosed()
      else client.destroy()
      return
    }
    writeAnswer(
      {
        status: 502,
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ error: 'bad gateway', message: `the target did not answer: ${message}` }),
      },
      failed.close,
    )
    settle(failed.close)
  }

  /** Hands the finished exchange (the answer as the client got it) to the recorder. */
  function reportExchange(responseBody: Buffer): void {
    handlers.done(
      {
        head: request!.head,
        started,
        ended: performance.now(),
        requestBody: request!.body,
        status,
        responseHeaders,
        responseBody,
      },
      token,
    )
  }

  function finishExchange(): void {
    reportExchange(EMPTY)
    request = undefined
    busy = false
  }

  function settle(close: boolean): void {
    request = undefined
    busy = false
    if (clientGone) {
      upstream?.destroy()
      resolveClosed()
      return
    }
    if (close || closing) {
      endClient()
      return
    }
    client.resume()
    if (input.length > 0) next()
    else if (clientEnded) endClient()
  }

  function writeAnswer(answer: LocalAnswer, close: boolean): void {
    if (clientGone) return
    const body = typeof answer.body === 'string' ? Buffer.from(answer.body) : answer.body
    let head = `HTTP/1.1 ${answer.status} ${STATUS_CODES[answer.status] ?? ''}\r\n`
    for (const [name, value] of Object.entries(answer.headers))
      if (!HOP_HEADERS.has(name.toLowerCase())) head += `${name}: ${value}\r\n`
    head += `date: ${new Date().toUTCString()}\r\nconnection: ${close ? 'close' : 'keep-alive'}\r\ncontent-length: ${body.length}\r\n\r\n`
    client.write(Buffer.concat([Buffer.from(head, 'latin1'), body]))
    if (close) endClient()
  }

  return {
    idle: () => !busy,
    close() {
      closing = true
      if (!busy) endClient()
    },
    closed,
  }
}
