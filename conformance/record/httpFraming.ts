/**
 * HTTP/1.1 framing for the recording proxy, as explicit state: a request taken whole off the
 * bytes a client sent ({@link takeRequest}), and an answer's state machine ({@link AnswerParser},
 * fed with {@link feedAnswer}) that finds where an answer ends (its head; a body of known length,
 * chunked, or up to the connection's end) and keeps a copy of its body. Nothing here touches a
 * socket: `relayConnection.ts` moves the bytes.
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

export const HEAD_END = Buffer.from('\r\n\r\n')
/** The longest head (request or answer) the proxy reads. */
export const MAX_HEAD = 64 * 1024
export const EMPTY: Buffer = Buffer.alloc(0)

/** A request as the client sent it, whole. */
export type Request = { head: RequestHead; body: Buffer; hasBody: boolean; close: boolean }

/** What {@link takeRequest} found at the start of the client's bytes. */
export type TakenRequest =
  | { kind: 'request'; request: Request; rest: Buffer }
  /** Not all there yet; `expectsContinue`: the client waits for `100 Continue` before its body. */
  | { kind: 'partial'; rest: Buffer; expectsContinue: boolean }
  | { kind: 'bad' | 'too large' }

/**
 * Takes one whole request off the start of `input` (empty lines before it skipped).
 *
 * @example
 * const taken = takeRequest(Buffer.from('GET / HTTP/1.1\r\nhost: x\r\n\r\n'))
 */
export function takeRequest(input: Buffer): TakenRequest {
  while (input.length >= 2 && input[0] === 13 && input[1] === 10) input = input.subarray(2)
  const end = input.indexOf(HEAD_END)
  if (end < 0) return input.length > MAX_HEAD ? { kind: 'too large' } : partial(input, {})
  const lines = input.toString('latin1', 0, end).split('\r\n')
  const first = lines[0]!.split(' ')
  if (first.length !== 3 || !first[2]!.startsWith('HTTP/')) return { kind: 'bad' }
  const headers: Record<string, string> = {}
  const kept: string[] = []
  for (let i = 1; i < lines.length; i++) {
    const line = lines[i]!
    const colon = line.indexOf(':')
    if (colon <= 0) return { kind: 'bad' }
    const name = line.slice(0, colon).trim().toLowerCase()
    const value = line.slice(colon + 1).trim()
    headers[name] = headers[name] === undefined ? value : `${headers[name]}, ${value}`
    kept.push(line)
  }
  const head: RequestHead = { method: first[0]!, path: first[1]!, headers, lines: kept }
  const chunked = /chunked/i.test(headers['transfer-encoding'] ?? '')
  const framed = chunked
    ? chunkedBody(input, end + 4)
    : headers['content-length'] !== undefined
      ? lengthBody(input, end + 4, headers['content-length'])
      : { body: EMPTY, end: end + 4 }
  if (framed === 'bad') return { kind: 'bad' }
  if (framed === undefined) return partial(input, headers)
  const connection = (headers.connection ?? '').toLowerCase()
  const close = first[2] === 'HTTP/1.0' ? !connection.includes('keep-alive') : connection.includes('close')
  return {
    kind: 'request',
    request: { head, body: framed.body, hasBody: chunked || headers['content-length'] !== undefined, close },
    rest: input.subarray(framed.end),
  }
}

function partial(input: Buffer, headers: Record<string, string>): TakenRequest {
  return { kind: 'partial', rest: input, expectsContinue: /100-continue/i.test(headers.expect ?? '') }
}

type Framed = { body: Buffer; end: number } | 'bad' | undefined

function lengthBody(input: Buffer, start: number, header: string): Framed {
  const length = Number(header)
  if (!Number.isInteger(length) || length < 0) return 'bad'
  if (input.length < start + length) return undefined
  return { body: input.subarray(start, start + length), end: start + length }
}

function chunkedBody(input: Buffer, start: number): Framed {
  const parts: Buffer[] = []
  let at = start
  for (;;) {
    const lineEnd = input.indexOf('\r\n', at)
    if (lineEnd < 0) return undefined
    const size = Number.parseInt(input.toString('latin1', at, lineEnd).split(';')[0]!, 16)
    if (Number.isNaN(size)) return 'bad'
    if (size === 0) {
      // Trailers (ignored) end with an empty line.
      const trailerEnd = input.indexOf('\r\n', lineEnd + 2)
      if (trailerEnd < 0) return undefined
      if (trailerEnd === lineEnd + 2) return { body: Buffer.concat(parts), end: trailerEnd + 2 }
      const all = input.indexOf(HEAD_END, lineEnd)
      return all < 0 ? undefined : { body: Buffer.concat(parts), end: all + 4 }
    }
    if (input.length < lineEnd + 2 + size + 2) return undefined
    parts.push(input.subarray(lineEnd + 2, lineEnd + 2 + size))
    at = lineEnd + 2 + size + 2
  }
}

/**
 * Where an answer is: its head not yet whole; its body by length, by chunks (a size line, data,
 * its CRLF; trailer lines after the last), or up to the connection's end; whole; or an upgrade
 * (101) after which the connection is a tunnel.
 */
export type AnswerState =
  | 'head'
  | 'length'
  | 'chunk-size'
  | 'chunk-data'
  | 'chunk-crlf'
  | 'trailer'
  | 'until-close'
  | 'complete'
  | 'upgrade'

/** The answer in flight: its state, what is known of it, and its body so far. */
export type AnswerParser = {
  state: AnswerState
  /** Bytes of the body (or of the chunk) still to come, in `length` and `chunk-data`. */
  remaining: number
  /** Bytes received and not yet read. */
  pending: Buffer
  status?: number | undefined
  /** Lower-case names; a repeated header's values joined with `, `. */
  headers: Record<string, string>
  /** The head's bytes as received. */
  head: Buffer
  /** The target ends the connection after this answer (`connection: close`, or a body up to the end). */
  closes: boolean
  /** The body's pieces (de-chunked). */
  pieces: Buffer[]
  /** A HEAD request: its answer has no body whatever its head says. */
  bodiless: boolean
}

/**
 * A parser for the answer to a request.
 *
 * @example
 * const parser = createAnswerParser('GET')
 */
export function createAnswerParser(method: string): AnswerParser {
  return {
    state: 'head',
    remaining: 0,
    pending: EMPTY,
    headers: {},
    head: EMPTY,
    closes: false,
    pieces: [],
    bodiless: method === 'HEAD',
  }
}

/**
 * Feeds bytes of the answer to its parser and runs the state machine as far as they go; returns
 * the state it stopped in (`complete` and `upgrade` are final; bytes after an upgrade's head stay
 * in `pending`). Throws on bytes that are not an HTTP answer.
 *
 * @example
 * if (feedAnswer(parser, chunk) === 'complete') deliver(Buffer.concat(parser.pieces))
 */
export function feedAnswer(parser: AnswerParser, chunk: Buffer): AnswerState {
  parser.pending = parser.pending.length === 0 ? chunk : Buffer.concat([parser.pending, chunk])
  for (;;) {
    const state = parser.state
    if (state === 'complete' || state === 'upgrade') return state
    const step = STEPS[state](parser)
    if (!step) return parser.state
  }
}

/** One transition from each state: true when it moved on (more may follow), false when it waits for bytes. */
const STEPS: Record<Exclude<AnswerState, 'complete' | 'upgrade'>, (p: AnswerParser) => boolean> = {
  head(p) {
    const end = p.pending.indexOf(HEAD_END)
    if (end < 0) {
      if (p.pending.length > MAX_HEAD) throw new Error('the answer has no end of head within 64 KiB')
      return false
    }
    const bytes = p.pending.subarray(0, end + 4)
    const lines = p.pending.toString('latin1', 0, end).split('\r\n')
    const code = Number(lines[0]!.split(' ')[1])
    if (!Number.isInteger(code)) throw new Error(`not an HTTP answer: ${lines[0]}`)
    p.pending = p.pending.subarray(end + 4)
    // An interim answer (100 Continue, 103): the real one follows.
    if (code >= 100 && code < 200 && code !== 101) return true
    const headers: Record<string, string> = {}
    for (let i = 1; i < lines.length; i++) {
      const line = lines[i]!
      const colon = line.indexOf(':')
      if (colon <= 0) continue
      const name = line.slice(0, colon).trim().toLowerCase()
      const value = line.slice(colon + 1).trim()
      headers[name] = headers[name] === undefined ? value : `${headers[name]}, ${value}`
    }
    p.status = code
    p.headers = headers
    p.head = bytes
    p.closes = /close/i.test(headers.connection ?? '')
    if (code === 101) p.state = 'upgrade'
    else if (p.bodiless || code === 204 || code === 304) p.state = 'complete'
    else if (/chunked/i.test(headers['transfer-encoding'] ?? '')) p.state = 'chunk-size'
    else if (headers['content-length'] !== undefined) {
      p.remaining = Number(headers['content-length'])
      p.state = p.remaining === 0 ? 'complete' : 'length'
    } else {
      p.state = 'until-close'
      p.closes = true
    }
    return true
  },
  length(p) {
    if (p.pending.length === 0) return false
    const take = Math.min(p.remaining, p.pending.length)
    p.pieces.push(p.pending.subarray(0, take))
    p.remaining -= take
    p.pending = p.pending.subarray(take)
    if (p.remaining === 0) p.state = 'complete'
    // Bytes past the answer's end are the target speaking out of turn: dropped.
    if (p.state === 'complete') p.pending = EMPTY
    return p.state === 'complete'
  },
  'until-close'(p) {
    if (p.pending.length > 0) p.pieces.push(p.pending)
    p.pending = EMPTY
    return false
  },
  'chunk-size'(p) {
    const end = p.pending.indexOf('\r\n')
    if (end < 0) return false
    const size = Number.parseInt(p.pending.toString('latin1', 0, end).split(';')[0]!, 16)
    if (Number.isNaN(size)) throw new Error('a malformed chunk size in the answer')
    p.remaining = size
    p.state = size === 0 ? 'trailer' : 'chunk-data'
    p.pending = p.pending.subarray(end + 2)
    return true
  },
  'chunk-data'(p) {
    if (p.pending.length === 0) return false
    const take = Math.min(p.remaining, p.pending.length)
    p.pieces.push(p.pending.subarray(0, take))
    p.remaining -= take
    p.pending = p.pending.subarray(take)
    if (p.remaining === 0) p.state = 'chunk-crlf'
    return true
  },
  'chunk-crlf'(p) {
    if (p.pending.length < 2) return false
    p.pending = p.pending.subarray(2)
    p.state = 'chunk-size'
    return true
  },
  trailer(p) {
    // Trailer lines until an empty one.
    const end = p.pending.indexOf('\r\n')
    if (end < 0) return false
    p.pending = p.pending.subarray(end + 2)
    if (end === 0) {
      p.state = 'complete'
      p.pending = EMPTY
    }
    return true
  },
}

/**
 * The answer's body so far, in one buffer.
 *
 * @example
 * const body = answerBody(parser)
 */
export function answerBody(parser: AnswerParser): Buffer {
  return parser.pieces.length === 1 ? parser.pieces[0]! : Buffer.concat(parser.pieces)
}
