import { createHmac } from 'node:crypto'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { startWebhookReceiver, verifyWebhookSignature, type WebhookReceiver } from './webhookReceiver'

let receiver: WebhookReceiver
beforeAll(async () => {
  receiver = await startWebhookReceiver()
})
afterAll(() => receiver.close())

const sign = (secret: string, body: string) =>
  `sha256=${createHmac('sha256', secret).update(body).digest('hex')}`

async function post(url: string, body: string, headers: Record<string, string> = {}) {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body,
  })
  return response.status
}

describe('webhook receiver', () => {
  test('verifies sha256=<hex> HMAC over the raw body, byte for byte', async () => {
    const inbox = receiver.createInbox()
    // Spacing matters: the signature covers the raw bytes, not a re-serialisation.
    const body = '{"type": "bridge-failed",  "data": {"errorCode": "TOKEN-3"}}'
    expect(await post(inbox.url, body, { 'x-webhook-signature': sign(inbox.secret, body) })).toBe(200)
    expect(await post(inbox.url, body, { 'x-webhook-signature': sign('another-secret', body) })).toBe(200)
    expect(
      await post(inbox.url, body, {
        'x-webhook-signature': sign(inbox.secret, JSON.stringify(JSON.parse(body))),
      }),
    ).toBe(200)
    expect(await post(inbox.url, body)).toBe(200)
    expect(await post(inbox.url, body, { 'x-webhook-signature': 'sha256=zz' })).toBe(200)
    const hooks = receiver.received(inbox.id)
    expect(hooks.map((h) => h.signature)).toEqual(['valid', 'invalid', 'invalid', 'absent', 'invalid'])
    expect(hooks[0]!.rawBody.toString()).toBe(body)
    expect(hooks[0]!.json).toEqual({ type: 'bridge-failed', data: { errorCode: 'TOKEN-3' } })
  })

  test('inboxes are separate and have their own secrets', async () => {
    const a = receiver.createInbox()
    const b = receiver.createInbox()
    expect(a.secret).not.toBe(b.secret)
    await post(b.url, '{}', { 'x-webhook-signature': sign(a.secret, '{}') })
    expect(receiver.received(a.id)).toHaveLength(0)
    expect(receiver.received(b.id)[0]!.signature).toBe('invalid')
    expect(await post(`${receiver.url}/inbox/unknown`, '{}')).toBe(404)
  })

  test('waitFor resolves on a matching webhook, or undefined after the timeout', async () => {
    const inbox = receiver.createInbox()
    const waiting = receiver.waitFor(
      inbox.id,
      (h) => (h.json as { type?: string }).type === 'deposit-received',
      5000,
    )
    await post(inbox.url, '{"type":"other"}')
    await post(inbox.url, '{"type":"deposit-received"}')
    expect((await waiting)?.json).toEqual({ type: 'deposit-received' })
    const started = Date.now()
    expect(await receiver.waitFor(inbox.id, () => false, 100)).toBeUndefined()
    expect(Date.now() - started).toBeGreaterThanOrEqual(90)
  })

  test('verifyWebhookSignature refuses a wrong length or prefix', () => {
    const body = Buffer.from('{}')
    expect(verifyWebhookSignature(body, sign('s', '{}'), 's')).toBe('valid')
    expect(verifyWebhookSignature(body, sign('s', '{}').replace('sha256=', 'sha1='), 's')).toBe('invalid')
    expect(verifyWebhookSignature(body, sign('s', '{}').slice(0, -2), 's')).toBe('invalid')
    expect(verifyWebhookSignature(body, undefined, 's')).toBe('absent')
  })
})
