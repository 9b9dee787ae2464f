import { STATUS_CODES } from 'node:http'
import { connect as netConnect, type Socket } from 'node:net'
import { connect as tlsConnect } from 'node:tls'
import { answerBody, createAnswerParser, EMPTY, feedAnswer, type Request } from './httpFraming'
import { type Connection, type Exchange, HOP_HEADERS, type LocalAnswer } from './relayTypes'

/**
 * The transitions of a relayed connection's exchange (relayConnection.ts takes the requests):
 * a request sent to the target, the answer's bytes passed on as its framing state machine reads
 * them (httpFraming.ts), and the exchange's end: complete, failed (a 502, or the connection
 * cut), or upgraded to a tunnel.
 */

const ANSWER_TIMEOUT_MS = 120_000
/** An answer of a known length up to this size is passed on in one write, once whole. */
const HOLD_BYTES = 256 * 1024

/** Ends the proxy's side; a client that keeps its side open past a moment is cut (the socket is half-open). */
export function endClient(c: Connection<unknown>): void {
  if (c.ending) return
  c.ending = true
  // Once all that was written has left, the client has a moment to close its side.
  c.client.end(() => setTimeout(() => c.client.destroy(), 2_000).unref())
}

/** Sends a request to the target (on the connection kept from the last one, or a new one). */
export function relay<Token>(c: Connection<Token>, parsed: Request): void {
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

/** Opens a connection to the target for the exchanges of a client connection. */
export function connectUpstream<Token>(c: Connection<Token>): Socket {
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
  if (state === 'complete') {
    complete(c, exchange)
    return
  }
  if (state === 'upgrade') {
    upgrade(c, exchange)
    return
  }
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
export function complete<Token>(c: Connection<Token>, exchange: Exchange<Token>): void {
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
export function fail<Token>(c: Connection<Token>, message: string): void {
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
export function settle(c: Connection<unknown>, close: boolean): void {
  c.exchange = undefined
  c.busy = false
  if (c.clientGone) {
    c.upstream?.destroy()
    c.resolveClosed()
    return
  }
  if (close || c.closing) {
    endClient(c)
    return
  }
  c.client.resume()
  if (c.input.length > 0) c.next()
  else if (c.clientEnded) endClient(c)
}

/** Writes an answer the proxy makes itself (its paths, a 400, a 502) to the client. */
export function writeAnswer(c: Connection<unknown>, answer: LocalAnswer, close: boolean): void {
  if (c.clientGone) return
  const body = typeof answer.body === 'string' ? Buffer.from(answer.body) : answer.body
  let head = `HTTP/1.1 ${answer.status} ${STATUS_CODES[answer.status] ?? ''}\r\n`
  for (const [name, value] of Object.entries(answer.headers))
    if (!HOP_HEADERS.has(name.toLowerCase())) head += `${name}: ${value}\r\n`
  head += `date: ${new Date().toUTCString()}\r\nconnection: ${close ? 'close' : 'keep-alive'}\r\ncontent-length: ${body.length}\r\n\r\n`
  c.client.write(Buffer.concat([Buffer.from(head, 'latin1'), body]))
  if (close) endClient(c)
}
