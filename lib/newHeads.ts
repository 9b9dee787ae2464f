/** What {@link subscribeNewHeads} reports. */
export type NewHeadsHandlers = {
  /** A block was mined: its number (from the `newHeads` notification's header). */
  onHead(number: bigint): void
  /** The subscription ended (refused, the socket closed or failed); no head comes after it. */
  onDown(error: Error): void
}

/** A live `newHeads` subscription; `close` ends it (onDown is not called then). */
export type NewHeadsSubscription = { close(): void }

/** Longest message accepted from the node: a header is ~1 KB; anything this large is not ours. */
const MAX_MESSAGE = 1 << 22

/**
 * Subscribes to a node's new blocks (`eth_subscribe` `newHeads`) over WebSocket on its RPC URL
 * (Anvil serves WebSocket on its HTTP port: `http://host:port` is `ws://host:port`), with the
 * `ws` package, loaded on the first subscription (not at every start of the bundle). Answers
 * once the subscription is confirmed; rejects when the node has no WebSocket or refuses it (the
 * caller keeps polling then). Every use has a fallback (the deposit watcher's poll), so a node it
 * cannot talk to costs only the latency it would save.
 *
 * @example
 * const sub = await subscribeNewHeads('http://127.0.0.1:8545', { onHead: console.log, onDown: console.error })
 * sub.close()
 */
export async function subscribeNewHeads(
  rpcUrl: string,
  handlers: NewHeadsHandlers,
  options: { timeoutMs?: number } = {},
): Promise<NewHeadsSubscription> {
  const url = new URL(rpcUrl)
  if (url.protocol !== 'http:' && url.protocol !== 'ws:')
    throw new Error(`newHeads: only http:// and ws:// URLs (got ${url.protocol})`)
  url.protocol = 'ws:'
  const { WebSocket } = await import('ws')
  return new Promise((resolve, reject) => {
    let settled = false
    let closed = false
    const socket = new WebSocket(url, {
      handshakeTimeout: options.timeoutMs ?? 5_000,
      maxPayload: MAX_MESSAGE,
      perMessageDeflate: false,
    })
    const fail = (error: Error) => {
      if (closed) return
      closed = true
      socket.terminate()
      if (!settled) {
        settled = true
        reject(error)
      } else handlers.onDown(error)
    }
    let subscription: string | undefined
    socket.on('open', () => {
      socket.send(JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_subscribe', params: ['newHeads'] }))
    })
    socket.on('unexpected-response', (_request, response) => {
      response.resume()
      fail(new Error(`newHeads: the node answered the WebSocket upgrade with HTTP ${response.statusCode}`))
    })
    socket.on('error', (error) => fail(error))
    socket.on('close', () => fail(new Error('newHeads: the WebSocket closed')))
    socket.on('message', (data) => {
      const text = data.toString()
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
            socket.close(1000)
          },
        })
        return
      }
      const params = message.params as { subscription?: string; result?: { number?: string } } | undefined
      if (subscription !== undefined && params?.subscription === subscription && params.result?.number)
        handlers.onHead(BigInt(params.result.number))
    })
  })
}
