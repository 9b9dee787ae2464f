import { createServer, type IncomingHttpHeaders, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'

/** One request the receiver got. */
export type ReceivedWebhook = { headers: IncomingHttpHeaders; rawBody: string; body: unknown; at: number }

/** How the receiver answers: a status code, or a delay before a 200 (to make a sender time out). */
export type ReceiverMode = { status: number } | { delayMs: number }

/**
 * A real HTTP webhook receiver on a loopback port chosen by the OS. It records every request
 * with its raw body; `down()` closes the port (connections are refused) and `up()` listens on
 * the same port again.
 */
export async function startWebhookReceiver(parameters: { mode?: ReceiverMode; port?: number } = {}) {
  let mode: ReceiverMode = parameters.mode ?? { status: 200 }
  const received: ReceivedWebhook[] = []
  const waiters = new Set<() => void>()
  let server: Server | undefined
  let port = parameters.port ?? 0

  const listen = () =>
    new Promise<void>((resolve, reject) => {
      const created = createServer((request, response) => {
        const chunks: Buffer[] = []
        request.on('data', (chunk: Buffer) => chunks.push(chunk))
        request.on('end', () => {
          const rawBody = Buffer.concat(chunks).toString('utf8')
          let body: unknown
          try {
            body = JSON.parse(rawBody)
          } catch {
            body = undefined
          }
          const answer = mode
          const respond = (status: number) => {
            if ('status' in answer && status < 300)
              received.push({ headers: request.headers, rawBody, body, at: Date.now() })
            else if ('delayMs' in answer)
              received.push({ headers: request.headers, rawBody, body, at: Date.now() })
            response.writeHead(status, { 'content-type': 'application/json' }).end('{"ok":true}')
            for (const waiter of waiters) waiter()
          }
          if ('status' in answer) respond(answer.status)
          else setTimeout(() => (response.destroyed ? undefined : respond(200)), answer.delayMs)
        })
      })
      created.keepAliveTimeout = 1_000
      created.once('error', reject)
      created.listen(port, '127.0.0.1', () => {
        port = (created.address() as AddressInfo).port
        server = created
        resolve()
      })
    })

  const close = async () => {
    const current = server
    server = undefined
    if (!current) return
    current.closeAllConnections()
    await new Promise<void>((resolve) => current.close(() => resolve()))
  }

  await listen()
  return {
    get url() {
      return `http://127.0.0.1:${port}/webhook`
    },
    get port() {
      return port
    },
    /** Requests answered with a 2xx (and, in delay mode, every request), in arrival order. */
    received,
    setMode(next: ReceiverMode) {
      mode = next
    },
    /** Closes the port: connections are refused until `up()`. */
    down: close,
    /** Listens again on the same port. */
    up: listen,
    /** Resolves once `predicate` holds (checked after every request), or rejects after `timeoutMs`. */
    waitFor(predicate: () => boolean, timeoutMs = 20_000): Promise<void> {
      if (predicate()) return Promise.resolve()
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => {
          waiters.delete(check)
          reject(new Error(`webhook receiver: condition not met within ${timeoutMs} ms`))
        }, timeoutMs)
        const check = () => {
          if (!predicate()) return
          clearTimeout(timer)
          waiters.delete(check)
          resolve()
        }
        waiters.add(check)
      })
    },
    close,
  }
}

export type WebhookReceiver = Awaited<ReturnType<typeof startWebhookReceiver>>
