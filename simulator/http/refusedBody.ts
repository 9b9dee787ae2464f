import type { IncomingMessage } from 'node:http'
import type { Socket } from 'node:net'
import { lingerAndClose } from './connectionErrors'

/**
 * Most bytes of a refused body the service reads (and discards) before it answers: 64 MiB, so
 * a client uploading anything up to that reads its 413 whatever its HTTP stack. Beyond it the
 * answer goes out at once and the connection lingers ({@link lingerAndClose}) instead.
 */
export const DRAIN_LIMIT_BYTES = 64 * 1024 * 1024

/**
 * Reads and discards the rest of a refused request body. Resolves `true` once the whole body
 * was read (the connection can even stay open), `false` when it stopped at `limit` bytes or the
 * request ended another way (aborted, errored). Most HTTP clients (Node's http with or without
 * keep-alive, fetch) read no answer until they have sent their body: answering first and
 * closing makes their kernel see a reset (EPIPE) instead of the 413.
 *
 * @example
 * if (await drainRefusedBody(request.raw)) reply.removeHeader('connection')
 */
export function drainRefusedBody(request: IncomingMessage, limit = DRAIN_LIMIT_BYTES): Promise<boolean> {
  if (request.complete) return Promise.resolve(true)
  return new Promise((resolve) => {
    let read = 0
    const finish = (whole: boolean) => {
      request.off('data', onData)
      request.off('end', onEnd)
      request.off('error', onOther)
      request.off('close', onOther)
      resolve(whole)
    }
    const onData = (chunk: Buffer) => {
      read += chunk.length
      if (read > limit) finish(false)
    }
    const onEnd = () => finish(true)
    const onOther = () => finish(request.complete)
    request.on('data', onData)
    request.once('end', onEnd)
    request.once('error', onOther)
    request.once('close', onOther)
    request.resume()
  })
}

/**
 * Makes the close that follows the answer a lingering one: Node's server destroys a
 * `connection: close` socket as soon as the answer is written (`socket.destroySoon`), which
 * resets a client still sending its body. The socket keeps reading for
 * {@link LINGER_MS} instead (the request keeps flowing into nothing).
 *
 * @example
 * lingerAfterAnswer(request.raw.socket)
 */
export function lingerAfterAnswer(socket: Socket): void {
  socket.destroySoon = () => lingerAndClose(socket)
}
