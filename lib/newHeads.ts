import { createHash, randomBytes } from 'node:crypto'
import { request } from 'node:http'
import type { Socket } from 'node:net'

/** What {@link subscribeNewHeads} reports. */
export type NewHeadsHandlers = {
  /** A block was mined: its number (from the `newHeads` notification's header). */
  onHead(number: bigint): void
  /** The subscription ended (refused, the socket closed or failed); no head comes after it. */
  onDown(error: Error): void
}

/** A live `newHeads` subscription; `close` ends it (onDown is not called then). */
export type NewHeadsSubscription = { close(): void }

/** The GUID of RFC 6455 §1.3 (the server's Sec-WebSocket-Accept is sha1(key + GUID)). */
const WS_GUID = '258EAFA5-E914-47DA-95CA-C5AB0DC85B11'

/** Longest frame accepted from the node: a header is ~1 KB; anything this large is not ours. */
const MAX_FRAME = 1 << 22

/**
 * Subscribes to a node's new blocks (`eth_subscribe` `newHeads`) over WebSocket on its RPC URL
 * (Anvil serves WebSocket on its HTTP port: `http://host:port` is `ws://host:port`). Answers once
 * the subscription is confirmed; rejects when the node has no WebSocket or refuses it (the
 * caller keeps polling then).
 *
 * A minimal RFC 6455 client over node:http's upgrade (text frames, fragments, ping/pong, close),
 * hand-written rather than the `ws` package: no dependency and nothing more for the bundle to
 * load at every start, for one subscription to a local node. Every use has a fallback (the
 * deposit watcher's poll), so a node it cannot talk to costs only the latency it would save.
 *
 * @example
 * const sub = await subscribeNewHeads('http://127.0.0.1:8545', { onHead: console.log, onDown: console.error })
 * sub.close()
 */
export function subscribeNewHeads(
  rpcUrl: string,
  handlers: NewHeadsHandlers,
  options: { timeoutMs?: number } = {},
): Promise<NewHeadsSubscription> {
  const url = new URL(rpcUrl)
  if (url.protocol !== 'http:' && url.protocol !== 'ws:')
    return Promise.reject(new Error(`newHeads: only http:// and ws:// URLs (got ${url.protocol})`))
  const key = randomBytes(16).toString('base64')
  return new Promise((resolve, reject) => {
    let settled = false
    let closed = false
    let socket: Socket | undefined
    const fail = (error: Error) => {
      if (closed) return
      closed = true
      socket?.destroy()
      if (!settled) {
        settled = true
        reject(error)
      } else handlers.onDown(error)
    }
    const req = request({
      host: url.hostname,
      port: url.port || 80,
      path: `${url.pathname}${url.search}`,
      headers: {
        Connection: 'Upgrade',
        Upgrade: 'websocket',
        'Sec-WebSocket-Key': key,
        'Sec-WebSocket-Version': '13',
      },
      timeout: options.timeoutMs ?? 5_000,
    })
    req.on('timeout', () => {
      req.destroy()
      fail(new Error('newHeads: no answer to the WebSocket upgrade'))
    })
    req.on('error', (error) => fail(error))
    req.on('response', (res) => {
      res.resume()
      fail(new Error(`newHeads: the node answered the WebSocket upgrade with HTTP ${res.statusCode}`))
    })
    req.on('upgrade', (res, upgraded, head) => {
      socket = upgraded
      req.setTimeout(0)
      const accept = createHash('sha1')
        .update(key + WS_GUID)
        .digest('base64')
      if (res.headers['sec-websocket-accept'] !== accept)
        return fail(new Error('newHeads: bad Sec-WebSocket-Accept'))
      upgraded.setNoDelay(true)
      let subscription: string | undefined
      const onMessage = (text: string) => {
        let message: { id?: number; result?: unknown; error?: { message?: string }; params?: unknown }
        try {
          message = JSON.parse(text)
        } catch {
          return fail(new Error('newHeads: a message that is not JSON'))
        }
        if (message.id === 1) {
          if (typeof message.result !== 'string')
            return fail(new Error(`newHeads: eth_subscribe refused: ${message.error?.message ?? text}`))
          subscription = message.result
          settled = true
          resolve({
            close() {
              if (closed) return
              closed = true
              // A close frame (code 1000), then the socket ends.
              upgraded.end(frame(0x8, Buffer.from([0x03, 0xe8])))
            },
          })
          return
        }
        const params = message.params as { subscription?: string; result?: { number?: string } } | undefined
        if (subscription !== undefined && params?.subscription === subscription && params.result?.number)
          handlers.onHead(BigInt(params.result.number))
      }
      const reader = frameReader({
        onText: onMessage,
        onPing: (payload) => upgraded.write(frame(0xa, payload)),
        onClose: () => fail(new Error('newHeads: the node closed the WebSocket')),
        onError: fail,
      })
      upgraded.on('data', reader)
      upgraded.on('error', fail)
      upgraded.on('close', () => fail(new Error('newHeads: the WebSocket closed')))
      if (head.length > 0) reader(head)
      upgraded.write(
        frame(
          0x1,
          Buffer.from(
            JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_subscribe', params: ['newHeads'] }),
          ),
        ),
      )
    })
    req.end()
  })
}

/** One client frame (FIN set, masked as RFC 6455 requires of a client). */
function frame(opcode: number, payload: Buffer): Buffer {
  const length = payload.length
  const extended = length < 126 ? 0 : length < 65_536 ? 2 : 8
  const out = Buffer.allocUnsafe(2 + extended + 4 + length)
  out[0] = 0x80 | opcode
  out[1] = 0x80 | (extended === 0 ? length : extended === 2 ? 126 : 127)
  if (extended === 2) out.writeUInt16BE(length, 2)
  else if (extended === 8) out.writeBigUInt64BE(BigInt(length), 2)
  const maskAt = 2 + extended
  randomBytes(4).copy(out, maskAt)
  for (let i = 0; i < length; i++) out[maskAt + 4 + i] = payload[i]! ^ out[maskAt + (i & 3)]!
  return out
}

/** Parses the node's frames from socket chunks: whole text messages (fragments joined), pings, close. */
function frameReader(handlers: {
  onText(text: string): void
  onPing(payload: Buffer): void
  onClose(): void
  onError(error: Error): void
}): (chunk: Buffer) => void {
  let buffered: Buffer = Buffer.alloc(0)
  let fragments: Buffer[] = []
  return (chunk) => {
    buffered = buffered.length === 0 ? chunk : Buffer.concat([buffered, chunk])
    for (;;) {
      if (buffered.length < 2) return
      const fin = (buffered[0]! & 0x80) !== 0
      const opcode = buffered[0]! & 0x0f
      const masked = (buffered[1]! & 0x80) !== 0
      let length = buffered[1]! & 0x7f
      let at = 2
      if (length === 126) {
        if (buffered.length < 4) return
        length = buffered.readUInt16BE(2)
        at = 4
      } else if (length === 127) {
        if (buffered.length < 10) return
        const long = buffered.readBigUInt64BE(2)
        if (long > BigInt(MAX_FRAME)) return handlers.onError(new Error('newHeads: a frame too large'))
        length = Number(long)
        at = 10
      }
      if (length > MAX_FRAME) return handlers.onError(new Error('newHeads: a frame too large'))
      const maskAt = at
      if (masked) at += 4
      if (buffered.length < at + length) return
      const payload = Buffer.from(buffered.subarray(at, at + length))
      if (masked) for (let i = 0; i < length; i++) payload[i] = payload[i]! ^ buffered[maskAt + (i & 3)]!
      buffered = buffered.subarray(at + length)
      if (opcode === 0x8) return handlers.onClose()
      if (opcode === 0x9) handlers.onPing(payload)
      else if (opcode === 0x1 || opcode === 0x2 || opcode === 0x0) {
        fragments.push(payload)
        if (fin) {
          const text = (fragments.length === 1 ? fragments[0]! : Buffer.concat(fragments)).toString('utf8')
          fragments = []
          handlers.onText(text)
        }
      }
    }
  }
}
