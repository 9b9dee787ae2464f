import { createHmac } from 'node:crypto'
import { Agent, request } from 'node:http'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import {
  MAX_WEBHOOK_BYTES,
  startWebhookInbox,
  startWebhookReceiver,
  verifyWebhookSignature,
  type WebhookReceiver,
  WebhookWaitTimeoutError,
} from './webhookReceiver'

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

  test("a keep-alive sender's webhooks share one connection", async () => {
    const inbox = receiver.createInbox()
    const agent = new Agent({ keepAlive: true })
    const reused: boolean[] = []
    for (let i = 0; i < 3; i++)
      await new Promise<void>((resolve, reject) => {
        const sent = request(
          inbox.url,
          { method: 'POST', agent, headers: { 'content-type': 'application/json' } },
          (response) => {
            reused.push(sent.reusedSocket)
            response.resume().once('end', () => resolve())
          },
        )
        sent.once('error', reject)
        sent.end('{}')
      })
    agent.destroy()
    expect(reused).toEqual([false, true, true])
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

  test('a body over 1 MiB is refused (413 or the connection cut), not recorded; the inbox goes on', async () => {
    const inbox = receiver.createInbox()
    const huge = `{"type":"deposit-received","pad":"${'x'.repeat(MAX_WEBHOOK_BYTES)}"}`
    const outcome = await new Promise<number | string>((resolve) => {
      const req = request(inbox.url, { method: 'POST', headers: { 'content-type': 'application/json' } })
      req.on('response', (res) => {
        res.resume()
        resolve(res.statusCode ?? 0)
      })
      req.on('error', (error: NodeJS.ErrnoException) => resolve(error.code ?? error.message))
      req.end(huge)
    })
    expect([413, 'ECONNRESET', 'EPIPE']).toContain(outcome)
    expect(await post(inbox.url, '{"type":"deposit-received"}')).toBe(200)
    expect(receiver.received(inbox.id).map((h) => h.rawBody.length)).toEqual([27])
  })

  test('verifyWebhookSignature refuses a wrong length or prefix', () => {
    const body = Buffer.from('{}')
    expect(verifyWebhookSignature(body, sign('s', '{}'), 's')).toBe('valid')
    expect(verifyWebhookSignature(body, sign('s', '{}').replace('sha256=', 'sha1='), 's')).toBe('invalid')
    expect(verifyWebhookSignature(body, sign('s', '{}').slice(0, -2), 's')).toBe('invalid')
    expect(verifyWebhookSignature(body, undefined, 's')).toBe('absent')
  })
})

describe('answers, for testing a sender', () => {
  test('an inbox answers the status it is set to, after its delay; every answered request is recorded with it', async () => {
    const inbox = receiver.createInbox({ secret: 'known', answer: { status: 500 } })
    expect(inbox.secret).toBe('known')
    expect(await post(inbox.url, '{"n":1}', { 'x-webhook-signature': sign('known', '{"n":1}') })).toBe(500)
    receiver.setAnswer(inbox.id, { status: 204, delayMs: 100 })
    const started = Date.now()
    expect(await post(inbox.url, '{"n":2}')).toBe(204)
    expect(Date.now() - started).toBeGreaterThanOrEqual(90)
    const hooks = receiver.received(inbox.id)
    expect(hooks.map((h) => [h.statusCode, h.signature, h.body])).toEqual([
      [500, 'valid', { n: 1 }],
      [204, 'absent', { n: 2 }],
    ])
    expect(hooks[0]!.json).toBe(hooks[0]!.body)
  })

  test('a sender that gives up during the delay got no answer: nothing is recorded', async () => {
    const inbox = receiver.createInbox({ answer: { delayMs: 300 } })
    await expect(
      fetch(inbox.url, { method: 'POST', body: '{}', signal: AbortSignal.timeout(50) }),
    ).rejects.toThrow()
    await new Promise((resolve) => setTimeout(resolve, 350))
    expect(receiver.received(inbox.id)).toEqual([])
  })

  test('down() refuses connections; up() listens again on the same URL, inboxes kept', async () => {
    const own = await startWebhookReceiver()
    try {
      const inbox = own.createInbox()
      await post(inbox.url, '{"before":true}')
      await own.down()
      await expect(post(inbox.url, '{}')).rejects.toThrow()
      await own.up()
      expect(await post(inbox.url, '{"after":true}')).toBe(200)
      expect(own.received(inbox.id).map((h) => h.body)).toEqual([{ before: true }, { after: true }])
    } finally {
      await own.close()
    }
  })
})

describe('startWebhookInbox: one inbox on its own receiver', () => {
  test('received lists the webhooks answered with a 2xx; waitFor waits for a condition', async () => {
    const inbox = await startWebhookInbox({ answer: { status: 503 } })
    try {
      expect(await post(inbox.url, '{"n":1}')).toBe(503)
      expect(inbox.received).toEqual([])
      inbox.setAnswer({ status: 200 })
      const waiting = inbox.waitFor(() => inbox.received.length === 2, 5_000)
      await post(inbox.url, '{"n":2}')
      await post(inbox.url, '{"n":3}', { 'x-webhook-signature': sign(inbox.secret, '{"n":3}') })
      await waiting
      expect(inbox.received.map((h) => [h.body, h.signature])).toEqual([
        [{ n: 2 }, 'absent'],
        [{ n: 3 }, 'valid'],
      ])
      await inbox.waitFor(() => true)
    } finally {
      await inbox.close()
    }
  })

  test('waitFor rejects with a WebhookWaitTimeoutError when the condition does not hold in time', async () => {
    const inbox = await startWebhookInbox()
    try {
      const waiting = inbox.waitFor(() => false, 100)
      await expect(waiting).rejects.toBeInstanceOf(WebhookWaitTimeoutError)
      await expect(inbox.waitFor(() => false, 50)).rejects.toThrowErrorMatchingInlineSnapshot(
        `[WebhookReceiver.WaitTimeoutError: The webhook receiver did not see the awaited webhooks within 50 ms.]`,
      )
    } finally {
      await inbox.close()
    }
  })
})
