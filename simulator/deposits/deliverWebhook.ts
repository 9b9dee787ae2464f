import { Agent as HttpAgent, request as httpRequest, type IncomingMessage } from 'node:http'
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https'
import { signWebhookBody, WEBHOOK_SIGNATURE_HEADER } from './signWebhook'

/** One delivery attempt. */
export type WebhookAttempt = {
  time: string
  url: string
  durationMs: number
  /** The receiver's HTTP status, when it answered. */
  statusCode?: number
  /** Why no answer came: `ECONNREFUSED`, `timeout after 5000 ms`, … */
  error?: string
  /** Whether the request carried an `X-Webhook-Signature` (absent in records of older runs). */
  signed?: boolean
}

/** Parameters of {@link deliverWebhook}. */
export type DeliverWebhookParameters = {
  url: string
  /** Signs the body (`X-Webhook-Signature`) when set. */
  secret: string | null
  /** The exact bytes to send (the signature covers them). */
  body: string
  /** No answer by then is a failed attempt. */
  timeoutMs: number
  /** The attempt's timestamp, unix ms (the devnet clock). */
  time: number
}

function describeError(error: unknown, timeoutMs: number): string {
  if (error instanceof Error) {
    if (error.name === 'TimeoutError') return `timeout after ${timeoutMs} ms`
    // Node's network errors name their cause (ECONNREFUSED, ENOTFOUND, ECONNRESET, …).
    const code = (error as { code?: unknown }).code
    return typeof code === 'string' ? code : error.message
  }
  return String(error)
}

/** Keep-alive sockets to the receivers, as Node's fetch kept them. */
const agents = { 'http:': new HttpAgent({ keepAlive: true }), 'https:': new HttpsAgent({ keepAlive: true }) }

/**
 * POSTs `body` and resolves with the receiver's status once its answer is read (a body cut off
 * by the time limit still counts: the status came); rejects when no status came within
 * `timeoutMs` (a TimeoutError) or the connection failed. Over `node:http(s)` rather than `fetch`
 * (undici), which costs several times the CPU per request (BENCHMARKS.md, "Balance-read transport").
 */
function post(url: URL, headers: Record<string, string>, body: string, timeoutMs: number): Promise<number> {
  return new Promise((resolve, reject) => {
    const protocol = url.protocol
    if (protocol !== 'http:' && protocol !== 'https:') {
      reject(new Error(`unsupported protocol ${protocol}`))
      return
    }
    let status: number | undefined
    const done = () => {
      clearTimeout(timer)
      if (status === undefined) return
      resolve(status)
    }
    const send = protocol === 'https:' ? httpsRequest : httpRequest
    const request = send(
      url,
      {
        method: 'POST',
        headers: { ...headers, 'content-length': String(Buffer.byteLength(body)) },
        agent: agents[protocol],
      },
      (response: IncomingMessage) => {
        status = response.statusCode ?? 0
        response.once('end', done)
        response.once('error', done)
        response.once('close', done)
        response.resume()
      },
    )
    const timer = setTimeout(() => {
      const error = new Error(`no answer within ${timeoutMs} ms`)
      error.name = 'TimeoutError'
      request.destroy(error)
    }, timeoutMs)
    request.once('error', (error) => {
      clearTimeout(timer)
      if (status === undefined) reject(error)
      else resolve(status)
    })
    request.end(body)
  })
}

/** Whether an attempt got a 2xx. */
export const isDelivered = (attempt: WebhookAttempt): boolean =>
  attempt.statusCode !== undefined && attempt.statusCode >= 200 && attempt.statusCode < 300

/**
 * POSTs one webhook, signed with the secret when there is one, and reports the attempt: the
 * receiver's status, or why no answer came (a refused connection, a timeout). Never throws.
 *
 * @example
 * const attempt = await deliverWebhook({ url, secret: 's', body, timeoutMs: 5_000, time: Date.now() })
 * isDelivered(attempt) // true on a 2xx
 */
export async function deliverWebhook(parameters: DeliverWebhookParameters): Promise<WebhookAttempt> {
  const { url, secret, body, timeoutMs } = parameters
  const headers: Record<string, string> = {
    'content-type': 'application/json',
    'user-agent': 'intent-devnet-webhooks/1.0',
  }
  if (secret) headers[WEBHOOK_SIGNATURE_HEADER] = signWebhookBody(secret, body)
  const attempt: WebhookAttempt = {
    time: new Date(parameters.time).toISOString(),
    url,
    durationMs: 0,
    signed: Boolean(secret),
  }
  const started = performance.now()
  try {
    // A redirect is the receiver's answer: not followed.
    attempt.statusCode = await post(new URL(url), headers, body, timeoutMs)
  } catch (error) {
    attempt.error = describeError(error, timeoutMs)
  }
  attempt.durationMs = Math.round((performance.now() - started) * 10) / 10
  return attempt
}
