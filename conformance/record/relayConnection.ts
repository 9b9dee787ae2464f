import { STATUS_CODES } from 'node:http'
import { connect as netConnect, type Socket } from 'node:net'
import { connect as tlsConnect } from 'node:tls'
import {
  type AnswerParser,
  answerBody,
  createAnswerParser,
  EMPTY,
  feedAnswer,
  type Request,
  takeRequest,
} from './httpFraming'

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

const ANSWER_TIMEOUT_MS = 120_000
/** An answer of a known length up to this size is passed on in one write, once whole. */
const HOLD_BYTES = 256 * 1024

/** The exchange in flight on a connection: the request, and the state of its answer. */
type Exchange<Token> = {
  request: Request
  token: Token
  /** `performance.now()` when the request was complete. */
  started: number
  /** The answer is read whole and rewritten before it goes to the client. */
  rewrite: boolean
  answer: AnswerParser
  /** Bytes of the answer received and not yet passed on (an answer of known, small length goes out whole). */
  held: Buffer[]
  heldBytes: number
  /** Some of the answer reached the client (a failure then cuts the connection instead of a 502). */
  sentToClient: boolean
}

/**
 * One relayed connection's state: the client's side, the target's side, and the exchange in
 * flight (one at a time, in order). The functions below are its transitions.
 */
type Connection<Token> = {
  client: Socket
  handlers: RelayHandlers<Token>
  upstream?: Socket | undefined
  /** Bytes the client sent that no request has taken yet. */
  input: Buffer
  exchange?: Exchange<Token> | undefined
  /** A request is being answered (by the target or by the proxy itself). */
  busy: boolean
  /** The server stops: the connection ends once the exchange in flight is answered. */
  closing: boolean
  clientEnded: boolean
  clientGone: boolean
  /** `100 Continue` was sent for the request being read. */
  continued: boolean
  /** The proxy's side of the client connection is ending. */
  ending: boolean
  /** After a 101, bytes go through both ways unparsed. */
  tunnel: boolean
  resolveClosed: () => void
}

/**
 * Relays one client connection to the target.
 *
 * @example
 * net.createServer((socket) => relayConnection(socket, handlers)).listen(4001)
 */
export function relayConnection<Token>(client: Socket, handlers: RelayHandlers<Token>): Relay {
  let resolveClosed: () => void = () => {}
  const closed = new Promise<void>((resolve) => {
    resolveClosed = resolve
  })
  const c: Connection<Token> = {
    client,
    handlers,
    input: EMPTY,
    busy: false,
    closing: false,
    clientEnded: false,
    clientGone: false,
    continued: false,
    ending: false,
    tunnel: false,
    resolveClosed: () => resolveClosed(),
  }
  client.setNoDelay(true)
  client.on('data', (chunk: Buffer) => {
    if (c.tunnel) {
      c.upstream?.write(chunk)
      return
    }
    c.input = c.input.length === 0 ? chunk : Buffer.concat([c.input, chunk])
    if (!c.busy) next(c)
  })
  client.on('end', () => {
    c.clientEnded = true
    if (!c.busy) endClient(c)
  })
  client.on('error', () => client.destroy())
  client.on('close', () => {
    c.clientGone = true
    // An exchange in flight still ends (and is recorded) though its client left.
    if (c.busy) return
    c.upstream?.destroy()
    c.resolveClosed()
  })
  return {
    idle: () => !c.busy,
    close() {
      c.closing = true
      if (!c.busy) endClient(c)
    },
    closed,
  }
}

/** Ends the proxy's side; a client that keeps its side open past a moment is cut (the socket is half-open). */
function endClient(c: Connection<unknown>): void {
  if (c.ending) return
  c.ending = true
  // Once all that was written has left, the client has a moment to close its side.
  c.client.end(() => setTimeout(() => c.client.destroy(), 2_000).unref())
}

/** Takes the next whole request off the client's bytes and answers it (locally or through the target). */
function next<Token>(c: Connection<Token>): void {
  if (c.closing) return endClient(c)
  const taken = takeRequest(c.input)
  if (taken.kind === 'partial') {
    c.input = taken.rest
    // The client waits for this before it sends the body (the target never sees `expect`).
    if (taken.expectsContinue && !c.continued) {
      c.continued = true
      c.client.write('HTTP/1.1 100 Continue\r\n\r\n')
    }
    if (c.clientEnded) endClient(c)
    return
  }
  if (taken.kind !== 'request') {
    writeAnswer(c, { status: taken.kind === 'too large' ? 431 : 400, headers: {}, body: '' }, true)
    return
  }
  c.input = taken.rest
  c.continued = false
  const { request } = taken
  c.busy = true
  c.client.pause()
  const local = c.handlers.local(request.head)
  if (!local) return relay(c, request)
  local(request.body).then(
    (answer) => {
      writeAnswer(c, answer, request.close)
      settle(c, request.close)
    },
    (error: unknown) => {
      writeAnswer(
        c,
        {
          status: 502,
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ error: 'recorder', message: String(error) }),
        },
        request.close,
      )
      settle(c, request.close)
    },
  )
}

/** Sends a request to the target (on the connection kept from the last one, or a new one). */
function relay<Token>(c: Connection<Token>, parsed: Request): void {
  const { handlers } = c
  const token = handlers.begin(parsed.head)
  const body = handlers.rewriteRequest(parsed.head, parsed.body) ?? parsed.body
  const request = { ...parsed, body }
  c.exchange = {
    request,
    token,
    started: performance.now(),
    rewrite: handlers.rewritesResponse(parsed.head),
    answer: createAnswerParser(parsed.head.method),
    held: [],
    heldBytes: 0,
    sentToClient: false,
  }
  let head = `${parsed.head.method} ${parsed.head.path} HTTP/1.1\r\nhost: ${handlers.target.host}\r\n`
  for (const line of parsed.head.lines) {
    const name = line.slice(0, line.indexOf(':')).trim().toLowerCase()
    if (!HOP_HEADERS.has(name)) head += `${line}\r\n`
  }
  if (parsed.hasBody || body.length > 0) head += `content-length: ${body.length}\r\n`
  head += '\r\n'
  const socket = c.upstream && !c.upstream.destroyed ? c.upstream : connectUpstream(c)
  socket.setTimeout(ANSWER_TIMEOUT_MS)
  socket.write(
    body.length > 0 ? Buffer.concat([Buffer.from(head, 'latin1'), body]) : Buffer.from(head, 'latin1'),
  )
}

function connectUpstream<Token>(c: Connection<Token>): Socket {
  const target = c.handlers.target
  const tls = target.protocol === 'https:'
  const port = Number(target.port || (tls ? 443 : 80))
  const hostname = target.hostname.replace(/^\[|\]$/g, '')
  const socket = tls
    ? tlsConnect({ host: hostname, port, servername: hostname })
    : netConnect({ host: hostname, port })
  socket.setNoDelay(true)
  c.upstream = socket
  socket.on('data', (chunk: Buffer) => {
    if (socket !== c.upstream) return
    if (c.tunnel) {
      c.client.write(chunk)
      return
    }
    const exchange = c.exchange
    if (!c.busy || !exchange) {
      // Nothing was asked: the target speaks out of turn.
      socket.destroy()
      return
    }
    onAnswerBytes(c, exchange, chunk)
  })
  socket.on('timeout', () => {
    if (socket === c.upstream && c.busy) fail(c, `no answer within ${ANSWER_TIMEOUT_MS / 1000} s`)
    else socket.destroy()
  })
  socket.on('error', (error) => {
    if (socket === c.upstream && c.busy && c.exchange) fail(c, error.message)
    socket.destroy()
  })
  socket.on('close', () => {
    if (socket !== c.upstream) return
    c.upstream = undefined
    if (c.tunnel) c.client.destroy()
    else if (c.busy && c.exchange) {
      if (c.exchange.answer.state === 'until-close') complete(c, c.exchange)
      else fail(c, 'the target closed the connection before it answered')
    } else if (!c.busy) endClient(c) // The target closed an idle connection: so does the proxy.
  })
  return socket
}

/**
 * Bytes of the answer in flight. They go on as they came; they are parsed only to find the
 * answer's end and keep a copy of its body. An answer of a known, small length is held until
 * whole and goes out in one write (a target often writes head and body apart: one write and one
 * wake-up of the client saved); a chunked or unbounded one (a stream) goes on as it arrives. An
 * answer that is rewritten goes out whole when complete.
 */
function onAnswerBytes<Token>(c: Connection<Token>, exchange: Exchange<Token>, chunk: Buffer): void {
  if (!exchange.rewrite) {
    exchange.held.push(chunk)
    exchange.heldBytes += chunk.length
  }
  let state: ReturnType<typeof feedAnswer>
  try {
    state = feedAnswer(exchange.answer, chunk)
  } catch (error) {
    fail(c, error instanceof Error ? error.message : String(error))
    return
  }
  if (state === 'complete') return complete(c, exchange)
  if (state === 'upgrade') return upgrade(c, exchange)
  const inBody = state !== 'head'
  if (exchange.heldBytes > 0 && ((inBody && state !== 'length') || exchange.heldBytes > HOLD_BYTES))
    flushHeld(c, exchange)
}

/** A 101: the connection becomes a tunnel both ways (its traffic is not recorded). */
function upgrade<Token>(c: Connection<Token>, exchange: Exchange<Token>): void {
  c.tunnel = true
  flushHeld(c, exchange)
  if (c.input.length > 0) c.upstream?.write(c.input)
  c.input = EMPTY
  report(c, exchange, EMPTY)
  c.exchange = undefined
  c.busy = false
  c.client.resume()
}

function flushHeld(c: Connection<unknown>, exchange: Exchange<unknown>): void {
  if (exchange.heldBytes === 0) return
  const bytes = exchange.held.length === 1 ? exchange.held[0]! : Buffer.concat(exchange.held)
  exchange.held = []
  exchange.heldBytes = 0
  send(c, exchange, bytes)
}

function send(c: Connection<unknown>, exchange: Exchange<unknown>, bytes: Buffer): void {
  exchange.sentToClient = true
  if (c.clientGone) return
  if (!c.client.write(bytes) && c.upstream) {
    const socket = c.upstream
    socket.pause()
    c.client.once('drain', () => socket.resume())
  }
}

/** The answer in flight is whole. */
function complete<Token>(c: Connection<Token>, exchange: Exchange<Token>): void {
  flushHeld(c, exchange)
  const { answer } = exchange
  const body = answerBody(answer)
  let delivered = body
  if (exchange.rewrite) {
    delivered = c.handlers.rewriteResponse(answer.status!, answer.headers, body)
    const lines = answer.head.toString('latin1', 0, answer.head.length - 4).split('\r\n')
    let head = `${lines[0]}\r\n`
    for (let i = 1; i < lines.length; i++) {
      const name = lines[i]!.slice(0, lines[i]!.indexOf(':')).trim().toLowerCase()
      if (name !== 'content-length' && name !== 'transfer-encoding') head += `${lines[i]}\r\n`
    }
    head += `content-length: ${delivered.length}\r\n\r\n`
    send(c, exchange, Buffer.concat([Buffer.from(head, 'latin1'), delivered]))
  }
  const closeAfter = exchange.request.close || answer.closes
  report(c, exchange, delivered)
  if (answer.closes) {
    const socket = c.upstream
    c.upstream = undefined
    socket?.destroy()
  } else c.upstream?.setTimeout(0)
  settle(c, closeAfter)
}

/** The exchange in flight got no (whole) answer. */
function fail<Token>(c: Connection<Token>, message: string): void {
  const exchange = c.exchange!
  // Held bytes never reached the client: it gets the 502 instead.
  exchange.held = []
  exchange.heldBytes = 0
  const socket = c.upstream
  c.upstream = undefined
  socket?.destroy()
  const failed = exchange.request
  c.handlers.done(
    {
      head: failed.head,
      started: exchange.started,
      ended: performance.now(),
      requestBody: failed.body,
      status: undefined,
      responseHeaders: {},
      responseBody: EMPTY,
      error: message,
    },
    exchange.token,
  )
  if (exchange.sentToClient || c.clientGone) {
    // Part of the answer is out: the client must see it cut, as it would from the target.
    c.exchange = undefined
    c.busy = false
    if (c.clientGone) c.resolveClosed()
    else c.client.destroy()
    return
  }
  writeAnswer(
    c,
    {
      status: 502,
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ error: 'bad gateway', message: `the target did not answer: ${message}` }),
    },
    failed.close,
  )
  settle(c, failed.close)
}

/** Hands the finished exchange (the answer as the client got it) to the recorder. */
function report<Token>(c: Connection<Token>, exchange: Exchange<Token>, responseBody: Buffer): void {
  c.handlers.done(
    {
      head: exchange.request.head,
      started: exchange.started,
      ended: performance.now(),
      requestBody: exchange.request.body,
      status: exchange.answer.status,
      responseHeaders: exchange.answer.headers,
      responseBody,
    },
    exchange.token,
  )
}

/** The exchange is over: the next request, or the end of the connection. */
function settle(c: Connection<unknown>, close: boolean): void {
  c.exchange = undefined
  c.busy = false
  if (c.clientGone) {
    c.upstream?.destroy()
    c.resolveClosed()
    return
  }
  if (close || c.closing) return endClient(c)
  c.client.resume()
  if (c.input.length > 0) next(c)
  else if (c.clientEnded) endClient(c)
}

function writeAnswer(c: Connection<unknown>, answer: LocalAnswer, close: boolean): void {
  if (c.clientGone) return
  const body = typeof answer.body === 'string' ? Buffer.from(answer.body) : answer.body
  let head = `HTTP/1.1 ${answer.status} ${STATUS_CODES[answer.status] ?? ''}\r\n`
  for (const [name, value] of Object.entries(answer.headers))
    if (!HOP_HEADERS.has(name.toLowerCase())) head += `${name}: ${value}\r\n`
  head += `date: ${new Date().toUTCString()}\r\nconnection: ${close ? 'close' : 'keep-alive'}\r\ncontent-length: ${body.length}\r\n\r\n`
  c.client.write(Buffer.concat([Buffer.from(head, 'latin1'), body]))
  if (close) endClient(c)
}
