import type { Socket } from 'node:net'
import type { AnswerParser, Request, RequestHead } from './httpFraming'

export type { RequestHead }

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

/** The exchange in flight on a connection: the request, and the state of its answer. */
export type Exchange<Token> = {
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
export type Connection<Token> = {
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
  /** Takes the next request the client sent, if it is all there (relayConnection.ts). */
  next: () => void
}
