import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto'
import { createServer, type IncomingHttpHeaders } from 'node:http'
import type { AddressInfo } from 'node:net'

/** One webhook request as the receiver got it, raw body kept byte for byte. */
export type ReceivedWebhook = {
  /** The inbox it was sent to (one per scenario). */
  inbox: string
  receivedAt: number
  headers: IncomingHttpHeaders
  rawBody: Buffer
  /** The parsed body, or undefined when it is not JSON. */
  json: unknown
  /** `valid`/`invalid` against the inbox's secret, `absent` without `X-Webhook-Signature`. */
  signature: 'valid' | 'invalid' | 'absent'
}

/** An inbox: a URL on the receiver and the secret its webhooks must be signed with. */
export type WebhookInbox = { id: string; url: string; secret: string }

export type WebhookReceiver = {
  url: string
  /** Opens an inbox with a fresh random secret. */
  createInbox(): WebhookInbox
  /** Webhooks received by an inbox so far. */
  received(inbox: string): ReceivedWebhook[]
  /** Resolves with the first webhook of the inbox that `accept` takes, or undefined after `timeoutMs`. */
  waitFor(
    inbox: string,
    accept: (hook: ReceivedWebhook) => boolean,
    timeoutMs: number,
  ): Promise<ReceivedWebhook | undefined>
  close(): Promise<void>
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
 * Starts the runner's webhook receiver on loopback (port 0). Each scenario opens its own inbox
 * (`/inbox/<id>`) with its own secret, so signatures are verified against the right key.
 *
 * @example
 * const receiver = await startWebhookReceiver()
 * const inbox = receiver.createInbox()
 * // configure the target with inbox.url and inbox.secret, then:
 * const hook = await receiver.waitFor(inbox.id, (h) => h.json?.type === 'bridge-failed', 30_000)
 */
export async function startWebhookReceiver(parameters: { host?: string } = {}): Promise<WebhookReceiver> {
  const host = parameters.host ?? '127.0.0.1'
  const secrets = new Map<string, string>()
  const inboxes = new Map<string, ReceivedWebhook[]>()
  const waiters = new Set<{
    inbox: string
    accept: (hook: ReceivedWebhook) => boolean
    resolve: (h: ReceivedWebhook) => void
  }>()

  const server = createServer((req, res) => {
    const chunks: Buffer[] = []
    req.on('data', (chunk: Buffer) => chunks.push(chunk))
    req.on('end', () => {
      const id = /^\/inbox\/([\w-]+)$/.exec(req.url ?? '')?.[1]
      const secret = id === undefined ? undefined : secrets.get(id)
      if (id === undefined || secret === undefined || req.method !== 'POST') {
        res.writeHead(404).end()
        return
      }
      const rawBody = Buffer.concat(chunks)
      let json: unknown
      try {
        json = JSON.parse(rawBody.toString('utf8'))
      } catch {
        json = undefined
      }
      const hook: ReceivedWebhook = {
        inbox: id,
        receivedAt: Date.now(),
        headers: req.headers,
        rawBody,
        json,
        signature: verifyWebhookSignature(rawBody, req.headers['x-webhook-signature'], secret),
      }
      inboxes.get(id)?.push(hook)
      for (const waiter of waiters)
        if (waiter.inbox === id && waiter.accept(hook)) {
          waiters.delete(waiter)
          waiter.resolve(hook)
        }
      res.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}')
    })
  })
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(0, host, () => resolve())
  })
  const { port } = server.address() as AddressInfo
  const url = `http://${host}:${port}`

  return {
    url,
    createInbox() {
      const id = randomBytes(8).toString('hex')
      const secret = randomBytes(24).toString('hex')
      secrets.set(id, secret)
      inboxes.set(id, [])
      return { id, url: `${url}/inbox/${id}`, secret }
    },
    received: (inbox) => inboxes.get(inbox) ?? [],
    waitFor(inbox, accept, timeoutMs) {
      const already = inboxes.get(inbox)?.find(accept)
      if (already) return Promise.resolve(already)
      return new Promise((resolve) => {
        const waiter = {
          inbox,
          accept,
          resolve: (hook: ReceivedWebhook) => {
            clearTimeout(timer)
            resolve(hook)
          },
        }
        const timer = setTimeout(() => {
          waiters.delete(waiter)
          resolve(undefined)
        }, timeoutMs)
        waiters.add(waiter)
      })
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      }),
  }
}
