import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto'
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { BaseError } from '../../spec/BaseError'

/** One webhook request as the receiver got it, raw body kept byte for byte. */
export type ReceivedWebhook = {
  /** The inbox it was sent to (one per scenario). */
  inbox: string
  receivedAt: number
  headers: IncomingHttpHeaders
  rawBody: Buffer
  /** The parsed body, or undefined when it is not JSON. */
  body: unknown
  /** The parsed body (the same value as `body`; the runner's steps read this name). */
  json: unknown
  /** `valid`/`invalid` against the inbox's secret, `absent` without `X-Webhook-Signature`. */
  signature: 'valid' | 'invalid' | 'absent'
  /** The HTTP status the inbox answered with. */
  statusCode: number
}

/** How an inbox answers: `status` (default 200), after `delayMs` (default 0; to make a sender time out). */
export type WebhookAnswer = { status?: number | undefined; delayMs?: number | undefined }

/** An inbox: a URL on the receiver and the secret its webhooks must be signed with. */
export type WebhookInbox = { id: string; url: string; secret: string }

/** Options of {@link WebhookReceiver.createInbox}. */
export type CreateInboxOptions = {
  /** The secret signatures are checked against. Default: a fresh random one. */
  secret?: string | undefined
  /** How the inbox answers. Default `{ status: 200 }`. */
  answer?: WebhookAnswer | undefined
}

/** The webhook receiver: one loopback port, one inbox per scenario (or test). */
export type WebhookReceiver = {
  url: string
  port: number
  /** Opens an inbox (by default with a fresh random secret, answering 200). */
  createInbox(options?: CreateInboxOptions): WebhookInbox
  /** Changes how an inbox answers, from the next request on. */
  setAnswer(inbox: string, answer: WebhookAnswer): void
  /** Webhooks an inbox answered so far (whatever the status), in the order it answered them. */
  received(inbox: string): ReceivedWebhook[]
  /** Resolves with the first webhook of the inbox that `accept` takes, or undefined after `timeoutMs`. */
  waitFor(
    inbox: string,
    accept: (hook: ReceivedWebhook) => boolean,
    timeoutMs: number,
  ): Promise<ReceivedWebhook | undefined>
  /** Closes the port: connections are refused until {@link WebhookReceiver.up}. Inboxes are kept. */
  down(): Promise<void>
  /** Listens again, on the same port. */
  up(): Promise<void>
  close(): Promise<void>
}

/** Parameters of {@link startWebhookReceiver}. */
export type StartWebhookReceiverParameters = {
  /** Default 127.0.0.1. */
  host?: string | undefined
  /** Default 0: a port the OS chooses. */
  port?: number | undefined
  /** The base URL the target reaches the receiver at (`--webhook-url`, e.g. through a tunnel); default `http://<host>:<port>`. */
  publicUrl?: string | undefined
  /** The host name the target reaches this machine by (`--webhook-host`); the URL keeps the port the receiver got. */
  advertisedHost?: string | undefined
}

/** The condition a test waited for did not hold in time. */
export class WebhookWaitTimeoutError extends BaseError {
  override name = 'WebhookReceiver.WaitTimeoutError'
  constructor(timeoutMs: number) {
    super(`The webhook receiver did not see the awaited webhooks within ${timeoutMs} ms.`)
  }
}

/**
 * Checks an `X-Webhook-Signature` header (`sha256=<hex>`, HMAC-SHA256 of the raw body with the
 * secret) in constant time.
 *
 * @example
 * verifyWebhookSignature(rawBody, req.headers['x-webhook-signature'], secret) // 'valid'
 */
export function verifyWebhookSignature(
  rawBody: Buffer | string,
  header: string | string[] | undefined,
  secret: string,
): 'valid' | 'invalid' | 'absent' {
  if (header === undefined) return 'absent'
  const value = Array.isArray(header) ? header[0] : header
  const match = /^sha256=([0-9a-fA-F]{64})$/.exec(value ?? '')
  if (!match?.[1]) return 'invalid'
  const expected = createHmac('sha256', secret).update(rawBody).digest()
  const given = Buffer.from(match[1], 'hex')
  return given.length === expected.length && timingSafeEqual(given, expected) ? 'valid' : 'invalid'
}

/**
 * The largest webhook body the receiver takes (413 above it): events of the spec are a few
 * hundred bytes, and a receiver on all interfaces (--webhook-host) must not fill the runner's
 * memory for whoever posts to it.
 */
export const MAX_WEBHOOK_BYTES = 1024 * 1024

const parseJson = (raw: Buffer): unknown => {
  try {
    return JSON.parse(raw.toString('utf8'))
  } catch {
    return undefined
  }
}

/**
 * Starts the runner's webhook receiver on loopback (port 0 unless given). Each scenario opens its
 * own inbox (`/inbox/<id>`) with its own secret, so signatures are verified against the right
 * key. An inbox records every request it answers; how it answers (status, delay) is set per
 * inbox, and `down()`/`up()` refuse connections for a while, to test a sender's retries.
 *
 * @example
 * const receiver = await startWebhookReceiver()
 * const inbox = receiver.createInbox()
 * // configure the target with inbox.url and inbox.secret, then:
 * const hook = await receiver.waitFor(inbox.id, (h) => h.json?.type === 'bridge-failed', 30_000)
 */
export async function startWebhookReceiver(
  parameters: StartWebhookReceiverParameters = {},
): Promise<WebhookReceiver> {
  const host = parameters.host ?? '127.0.0.1'
  const inboxes = new Map<string, { secret: string; answer: WebhookAnswer; hooks: ReceivedWebhook[] }>()
  const listeners = new Set<(hook: ReceivedWebhook) => void>()
  let server: Server | undefined
  let port = parameters.port ?? 0

  const record = (hook: ReceivedWebhook) => {
    inboxes.get(hook.inbox)?.hooks.push(hook)
    for (const listener of [...listeners]) listener(hook)
  }

  const listen = () =>
    new Promise<void>((resolve, reject) => {
      const created = createServer((req, res) => {
        const chunks: Buffer[] = []
        let size = 0
        req.on('data', (chunk: Buffer) => {
          size += chunk.length
          if (size <= MAX_WEBHOOK_BYTES) return void chunks.push(chunk)
          // Not an event of the spec: refused, not recorded, and not read any further.
          chunks.length = 0
          if (!res.headersSent) res.writeHead(413, { connection: 'close' }).end()
          req.destroy()
        })
        req.on('end', () => {
          if (size > MAX_WEBHOOK_BYTES) return
          const id = /^\/inbox\/([\w-]+)$/.exec(req.url ?? '')?.[1]
          const inbox = id === undefined ? undefined : inboxes.get(id)
          if (id === undefined || inbox === undefined || req.method !== 'POST') {
            res.writeHead(404).end()
            return
          }
          const rawBody = Buffer.concat(chunks)
          const { status = 200, delayMs = 0 } = inbox.answer
          const answer = () => {
            // A sender that gave up during the delay got no answer: nothing to record.
            if (res.destroyed) return
            const json = parseJson(rawBody)
            record({
              inbox: id,
              receivedAt: Date.now(),
              headers: req.headers,
              rawBody,
              body: json,
              json,
              signature: verifyWebhookSignature(rawBody, req.headers['x-webhook-signature'], inbox.secret),
              statusCode: status,
            })
            res.writeHead(status, { 'content-type': 'application/json' }).end('{"ok":true}')
          }
          if (delayMs > 0) setTimeout(answer, delayMs)
          else answer()
        })
      })
      // Idle keep-alive connections stay 5 s (Node's default): Node's keep-alive agent keeps no
      // socket whose server hints `Keep-Alive: timeout=1` or less, so with 1 s every webhook the
      // simulator sent was a connection of its own (65 per run). `down()` and `close()` close the
      // idle ones themselves.
      created.keepAliveTimeout = 5_000
      created.once('error', reject)
      created.listen(port, host, () => {
        port = (created.address() as AddressInfo).port
        server = created
        resolve()
      })
    })

  const down = async () => {
    const current = server
    server = undefined
    if (!current) return
    current.closeAllConnections()
    await new Promise<void>((resolve) => current.close(() => resolve()))
  }

  await listen()
  const url =
    parameters.publicUrl?.replace(/\/+$/, '') ?? `http://${parameters.advertisedHost ?? host}:${port}`
  return {
    url,
    port,
    createInbox(options = {}) {
      const id = randomBytes(8).toString('hex')
      const secret = options.secret ?? randomBytes(24).toString('hex')
      inboxes.set(id, { secret, answer: options.answer ?? {}, hooks: [] })
      return { id, url: `${url}/inbox/${id}`, secret }
    },
    setAnswer(inbox, answer) {
      const current = inboxes.get(inbox)
      if (current) current.answer = answer
    },
    received: (inbox) => inboxes.get(inbox)?.hooks ?? [],
    waitFor(inbox, accept, timeoutMs) {
      const already = inboxes.get(inbox)?.hooks.find(accept)
      if (already) return Promise.resolve(already)
      return new Promise((resolve) => {
        const done = (hook?: ReceivedWebhook) => {
          clearTimeout(timer)
          listeners.delete(listener)
          resolve(hook)
        }
        const listener = (hook: ReceivedWebhook) => {
          if (hook.inbox === inbox && accept(hook)) done(hook)
        }
        const timer = setTimeout(done, timeoutMs)
        listeners.add(listener)
      })
    },
    down,
    up: listen,
    close: down,
  }
}

/** A receiver with one inbox, for a test or bench that needs one webhook URL. */
export type WebhookInboxReceiver = {
  /** The inbox's URL. */
  url: string
  secret: string
  /** Webhooks the inbox answered with a 2xx, in the order it answered them. */
  readonly received: ReceivedWebhook[]
  /** Changes how the inbox answers, from the next request on. */
  setAnswer(answer: WebhookAnswer): void
  /** Resolves once `predicate` holds (checked after every webhook); rejects with {@link WebhookWaitTimeoutError}. */
  waitFor(predicate: () => boolean, timeoutMs?: number): Promise<void>
  /** Closes the port: connections are refused until `up()`. */
  down(): Promise<void>
  /** Listens again, on the same port (the same URL). */
  up(): Promise<void>
  close(): Promise<void>
}

/**
 * Starts a {@link startWebhookReceiver} with a single inbox and answers for that inbox.
 *
 * @example
 * const receiver = await startWebhookInbox({ answer: { status: 500 } })
 * // configure the sender with receiver.url, then:
 * receiver.setAnswer({ status: 200 })
 * await receiver.waitFor(() => receiver.received.length === 3)
 */
export async function startWebhookInbox(
  parameters: StartWebhookReceiverParameters & CreateInboxOptions = {},
): Promise<WebhookInboxReceiver> {
  const receiver = await startWebhookReceiver(parameters)
  const inbox = receiver.createInbox(parameters)
  // The 2xx-answered webhooks, kept up to date as they are read (a bench reads this thousands of times).
  const delivered: ReceivedWebhook[] = []
  let seen = 0
  return {
    url: inbox.url,
    secret: inbox.secret,
    get received() {
      const hooks = receiver.received(inbox.id)
      for (; seen < hooks.length; seen++) {
        const hook = hooks[seen]!
        if (hook.statusCode >= 200 && hook.statusCode < 300) delivered.push(hook)
      }
      return delivered
    },
    setAnswer: (answer) => receiver.setAnswer(inbox.id, answer),
    async waitFor(predicate, timeoutMs = 20_000) {
      if (predicate()) return
      const hook = await receiver.waitFor(inbox.id, () => predicate(), timeoutMs)
      if (!hook) throw new WebhookWaitTimeoutError(timeoutMs)
    },
    down: receiver.down,
    up: receiver.up,
    close: receiver.close,
  }
}
