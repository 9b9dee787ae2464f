import { createHmac, timingSafeEqual } from 'node:crypto'

/** The header that carries a webhook's signature (facts §1). */
export const WEBHOOK_SIGNATURE_HEADER = 'X-Webhook-Signature'

/**
 * Signs a webhook body: `sha256=` + hex HMAC-SHA256(secret, raw body) (facts §1).
 *
 * @example
 * signWebhookBody('s3cret', '{"version":"1.0"}') // 'sha256=…'
 */
export function signWebhookBody(secret: string, rawBody: string | Uint8Array): string {
  return `sha256=${createHmac('sha256', secret).update(rawBody).digest('hex')}`
}

/**
 * Verifies a webhook signature header against the raw body, in constant time. This is what a
 * receiver runs (docs/deposit-processor.md shows it standalone).
 *
 * @returns true when `header` is `sha256=<hex>` of HMAC-SHA256(secret, rawBody).
 */
export function verifyWebhookSignature(
  secret: string,
  rawBody: string | Uint8Array,
  header: string | null | undefined,
): boolean {
  if (typeof header !== 'string' || !header.startsWith('sha256=')) return false
  const expected = Buffer.from(signWebhookBody(secret, rawBody))
  const given = Buffer.from(header)
  return expected.length === given.length && timingSafeEqual(expected, given)
}
