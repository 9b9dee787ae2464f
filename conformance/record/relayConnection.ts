import type { Socket } from 'node:net'
import { EMPTY, takeRequest } from './httpFraming'
import { endClient, relay, settle, writeAnswer } from './relayExchange'
import type { Connection, Relay, RelayHandlers } from './relayTypes'

export {
  HOP_HEADERS,
  type LocalAnswer,
  type Relay,
  type RelayedExchange,
  type RelayHandlers,
  type RequestHead,
} from './relayTypes'

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
    next: () => next(c),
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

/** Takes the next whole request off the client's bytes and answers it (locally or through the target). */
function next<Token>(c: Connection<Token>): void {
  if (c.closing) {
    endClient(c)
    return
  }
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
  if (!local) {
    relay(c, request)
    return
  }
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
