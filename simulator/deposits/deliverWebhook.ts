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
    if (error.name === 'TimeoutError' || error.name === 'AbortError') return `timeout after ${timeoutMs} ms`
    const cause = error.cause as { code?: string; message?: string } | undefined
    if (cause?.code) return cause.code
    return cause?.message ?? error.message
  }
  return String(error)
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
    const response = await fetch(url, {
      method: 'POST',
      headers,
      body,
      redirect: 'manual',
      signal: AbortSignal.timeout(timeoutMs),
    })
    await response.arrayBuffer().catch(() => undefined)
    attempt.statusCode = response.status
  } catch (error) {
    attempt.error = describeError(error, timeoutMs)
  }
  attempt.durationMs = Math.round((performance.now() - started) * 10) / 10
  return attempt
}
