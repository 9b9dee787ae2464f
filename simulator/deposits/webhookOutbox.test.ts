import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, test } from 'vitest'
import { startWebhookInbox } from '../../conformance/runner/webhookReceiver'
import { verifyWebhookSignature } from './signWebhook'
import { createWebhookOutbox, retryDelayMs, type WebhookOutbox } from './webhookOutbox'

const cleanups: (() => Promise<void> | void)[] = []
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup()
})

async function receiver(parameters?: Parameters<typeof startWebhookInbox>[0]) {
  const r = await startWebhookInbox(parameters)
  cleanups.push(() => r.close())
  return r
}

function outboxFor(
  target: { url: string; secret: string | null } | undefined,
  extra: Partial<Parameters<typeof createWebhookOutbox>[0]> = {},
) {
  const outbox = createWebhookOutbox({
    target: () => target,
    retry: { baseDelayMs: 20, maxDelayMs: 200, maxAttempts: 8, timeoutMs: 300 },
    ...extra,
  })
  outbox.start()
  cleanups.push(() => outbox.stop())
  return outbox
}

const settled = (outbox: WebhookOutbox) =>
  new Promise<void>((resolve) => {
    if (outbox.pendingCount() === 0) return resolve()
    const off = outbox.onChange(() => {
      if (outbox.pendingCount() === 0) {
        off()
        resolve()
      }
    })
  })

describe('signatures', () => {
  test('with a secret: sha256=<hex> over the raw body verifies; a tampered body does not', async () => {
    const r = await receiver()
    const outbox = outboxFor({ url: r.url, secret: 'whsec_test' })
    outbox.enqueue({ tenant: 't', type: 'bridge-failed', data: { errorCode: 'TOKEN-3' } })
    await r.waitFor(() => r.received.length === 1)
    const [hit] = r.received
    const header = hit!.headers['x-webhook-signature'] as string
    expect(header).toMatch(/^sha256=[0-9a-f]{64}$/)
    expect(verifyWebhookSignature('whsec_test', hit!.rawBody, header)).toBe(true)
    expect(
      verifyWebhookSignature('whsec_test', hit!.rawBody.toString().replace('TOKEN-3', 'TOKEN-4'), header),
    ).toBe(false)
    expect(verifyWebhookSignature('other-secret', hit!.rawBody, header)).toBe(false)
    expect(hit!.body).toMatchObject({ version: '1.0', type: 'bridge-failed', data: { errorCode: 'TOKEN-3' } })
    const envelope = hit!.body as { eventId: string; time: string }
    expect(envelope.eventId).toMatch(/^evt_/)
    expect(new Date(envelope.time).toISOString()).toBe(envelope.time)
  })

  test('without a secret: no signature header', async () => {
    const r = await receiver()
    const outbox = outboxFor({ url: r.url, secret: null })
    outbox.enqueue({ tenant: 't', type: 'deposit-received', data: {} })
    await r.waitFor(() => r.received.length === 1)
    expect(r.received[0]!.headers['x-webhook-signature']).toBeUndefined()
  })
})

describe('delivery', () => {
  test('a receiver that refuses, then answers 500, then accepts gets every event once it is back', async () => {
    const r = await receiver({ answer: { status: 500 } })
    await r.down()
    const outbox = outboxFor(
      { url: r.url, secret: 's' },
      { retry: { baseDelayMs: 40, maxDelayMs: 300, maxAttempts: 30, timeoutMs: 500 } },
    )
    const ids = Array.from(
      { length: 5 },
      (_, i) => outbox.enqueue({ tenant: 't', type: 'bridge-failed', data: { i } }).eventId,
    )
    // Refused for a while.
    await new Promise((resolve) => setTimeout(resolve, 150))
    await r.up()
    await new Promise((resolve) => setTimeout(resolve, 300))
    r.setAnswer({ status: 200 })
    await r.waitFor(
      () => new Set(r.received.map((hit) => (hit.body as { eventId: string }).eventId)).size === 5,
    )
    await settled(outbox)
    expect(new Set(r.received.map((hit) => (hit.body as { eventId: string }).eventId))).toEqual(new Set(ids))
    const { events } = outbox.list('t', { limit: 10 })
    for (const event of events) {
      expect(event.status).toBe('delivered')
      const errors = event.attempts.filter((a) => a.error !== undefined).map((a) => a.error)
      const statuses = event.attempts.map((a) => a.statusCode).filter((s) => s !== undefined)
      expect(errors.length).toBeGreaterThan(0)
      expect(new Set(errors)).toEqual(new Set(['ECONNREFUSED']))
      expect(statuses).toContain(500)
      expect(statuses.at(-1)).toBe(200)
      for (const attempt of event.attempts) expect(attempt.durationMs).toBeGreaterThanOrEqual(0)
    }
  })

  test('a timeout is an attempt that failed; after maxAttempts the event is failed; resend sends it again', async () => {
    const r = await receiver({ answer: { delayMs: 1_000 } })
    const outbox = outboxFor(
      { url: r.url, secret: null },
      { retry: { baseDelayMs: 10, maxDelayMs: 20, maxAttempts: 3, timeoutMs: 100 } },
    )
    const { eventId } = outbox.enqueue({ tenant: 't', type: 'bridge-failed', data: {} })
    await settled(outbox)
    const failed = outbox.get('t', eventId)!
    expect(failed.status).toBe('failed')
    expect(failed.attempts.map((a) => a.error)).toEqual([
      'timeout after 100 ms',
      'timeout after 100 ms',
      'timeout after 100 ms',
    ])
    r.setAnswer({ status: 204 })
    // Let the receiver finish the slow answers it still owes.
    await new Promise((resolve) => setTimeout(resolve, 1_100))
    const resent = await outbox.resend('t', eventId)
    expect(resent?.status).toBe('delivered')
    expect(resent?.attempts.at(-1)?.statusCode).toBe(204)
    expect(await outbox.resend('other-tenant', eventId)).toBeUndefined()
  })

  test('events of a tenant without a webhookUrl are kept, as skipped', async () => {
    const outbox = outboxFor(undefined)
    const { eventId } = outbox.enqueue({ tenant: 't', type: 'deposit-received', data: {} })
    await settled(outbox)
    expect(outbox.get('t', eventId)).toMatchObject({ status: 'skipped', attempts: [] })
  })

  test('an eventId is stored once; lists are per tenant, newest first, with cursor paging', async () => {
    const outbox = outboxFor(undefined)
    for (let i = 0; i < 5; i++) outbox.enqueue({ tenant: 'a', type: 'x', data: { i }, eventId: `evt_${i}` })
    outbox.enqueue({ tenant: 'a', type: 'x', data: { i: 99 }, eventId: 'evt_0' })
    outbox.enqueue({ tenant: 'b', type: 'x', data: {} })
    const first = outbox.list('a', { limit: 3 })
    expect(first.events.map((e) => e.eventId)).toEqual(['evt_4', 'evt_3', 'evt_2'])
    const second = outbox.list('a', { limit: 3, cursor: first.nextCursor! })
    expect(second.events.map((e) => e.eventId)).toEqual(['evt_1', 'evt_0'])
    expect(second.nextCursor).toBeNull()
    expect((second.events[1]!.payload as { data: unknown }).data).toEqual({ i: 0 })
    expect(outbox.list('b').events).toHaveLength(1)
    expect(outbox.get('b', 'evt_0')).toBeUndefined()
  })

  test('backoff doubles, is capped and jittered between half and all of the delay', () => {
    const policy = { maxAttempts: 8, baseDelayMs: 100, maxDelayMs: 1_000, timeoutMs: 1 }
    expect([1, 2, 3, 4, 5, 6].map((round) => retryDelayMs(round, policy, () => 0))).toEqual([
      50, 100, 200, 400, 500, 500,
    ])
    expect([1, 2, 3, 4, 5, 6].map((round) => retryDelayMs(round, policy, () => 0.999999))).toEqual([
      100, 200, 400, 800, 1000, 1000,
    ])
  })
})

test('a moved clock (clockMoved) sends a retry it made due at once; one not yet due still waits', async () => {
  const r = await receiver({ answer: { status: 500 } })
  let now = 1_800_000_000_000
  const outbox = outboxFor(
    { url: r.url, secret: null },
    // The first retry 30-60 s of clock after the failure; no probe.
    {
      now: () => now,
      retry: { baseDelayMs: 60_000, maxDelayMs: 60_000, maxAttempts: 5 },
      probeIntervalMs: 0,
    },
  )
  const { eventId } = outbox.enqueue({ tenant: 't', type: 'bridge-failed', data: {} })
  const attempted = () => outbox.get('t', eventId)!.attempts.length
  await new Promise<void>((resolve) => {
    if (attempted() === 1) return resolve()
    const off = outbox.onChange(() => {
      if (attempted() !== 1) return
      off()
      resolve()
    })
  })
  r.setAnswer({ status: 200 })
  // The outbox is asleep (its wake-up is POLL_MS, 1 s, away: the retry is far off).
  await new Promise((resolve) => setTimeout(resolve, 50))
  const due = Date.parse(outbox.get('t', eventId)!.nextAttemptAt!)
  expect(due - now).toBeGreaterThanOrEqual(30_000)
  // Not yet due: nothing goes (its retry time is kept).
  now = due - 10_000
  outbox.clockMoved()
  await new Promise((resolve) => setTimeout(resolve, 150))
  expect(attempted()).toBe(1)
  expect(r.received.length).toBe(0)
  // Due: it goes at once, well within the outbox's 1 s wake-up.
  now = due
  const moved = performance.now()
  outbox.clockMoved()
  await r.waitFor(() => r.received.length === 1, 2_000)
  expect(performance.now() - moved).toBeLessThan(500)
  await settled(outbox)
  expect(outbox.get('t', eventId)!.status).toBe('delivered')
})

test('once the receiver answers again, events waiting out a long backoff go at once, each once', async () => {
  const r = await receiver()
  await r.down()
  // The devnet clock does not move: an event waiting out its backoff would never be retried.
  const now = 1_800_000_000_000
  const outbox = outboxFor(
    { url: r.url, secret: 's' },
    // No probe here: this test shows a delivery waking the tenant (the probe is tested below).
    {
      now: () => now,
      retry: { baseDelayMs: 60_000, maxDelayMs: 3_600_000, maxAttempts: 100 },
      probeIntervalMs: 0,
    },
  )
  const waiting = Array.from(
    { length: 20 },
    (_, i) => outbox.enqueue({ tenant: 't', type: 'bridge-failed', data: { i } }).eventId,
  )
  const other = outboxFor({ url: r.url, secret: 's' }, { now: () => now })
  await new Promise<void>((resolve) => {
    const check = () => outbox.list('t', { limit: 100 }).events.every((e) => e.attempts.length === 1)
    if (check()) return resolve()
    const off = outbox.onChange(() => {
      if (!check()) return
      off()
      resolve()
    })
  })
  expect(outbox.list('t', { limit: 100 }).events.every((e) => e.status === 'pending')).toBe(true)
  await r.up()
  // Another tenant's delivery wakes nobody here; this tenant's next event does.
  other.enqueue({ tenant: 'u', type: 'bridge-failed', data: {} })
  await r.waitFor(() => r.received.length === 1)
  expect(outbox.list('t', { limit: 100 }).events.every((e) => e.status === 'pending')).toBe(true)
  const fresh = outbox.enqueue({ tenant: 't', type: 'bridge-failed', data: { fresh: true } }).eventId
  await r.waitFor(() => r.received.length === 22, 5_000)
  await settled(outbox)
  const ids = r.received.map((hit) => (hit.body as { eventId: string }).eventId)
  expect(new Set(ids).size).toBe(ids.length)
  expect(ids).toEqual(expect.arrayContaining([...waiting, fresh]))
})

test('a receiver that answers again gets its waiting events within seconds, by a probe, not at its next slot', async () => {
  const r = await receiver()
  await r.down()
  // The devnet clock does not move: without a probe nothing would be retried for an hour.
  const now = 1_800_000_000_000
  const outbox = outboxFor(
    { url: r.url, secret: 's' },
    {
      now: () => now,
      retry: { baseDelayMs: 3_600_000, maxDelayMs: 3_600_000, maxAttempts: 100, timeoutMs: 300 },
      probeIntervalMs: 200,
    },
  )
  const ids = [0, 1, 2].map(
    (i) => outbox.enqueue({ tenant: 't', type: 'bridge-failed', data: { i } }).eventId,
  )
  await new Promise((resolve) => setTimeout(resolve, 1_000))
  // Probes while the receiver is down changed nothing: one recorded attempt each, still pending.
  expect(outbox.list('t').events.map((e) => [e.status, e.attempts.length])).toEqual([
    ['pending', 1],
    ['pending', 1],
    ['pending', 1],
  ])
  await r.up()
  const back = Date.now()
  await r.waitFor(() => r.received.length === 3, 3_000)
  expect(Date.now() - back).toBeLessThan(3_000)
  await settled(outbox)
  expect(r.received.map((hit) => (hit.body as { eventId: string }).eventId).sort()).toEqual([...ids].sort())
  expect(outbox.list('t').events.every((e) => e.status === 'delivered' && e.attempts.length === 2)).toBe(true)
})

describe('durability', () => {
  let dir: string
  afterEach(() => rmSync(dir, { recursive: true, force: true }))

  test('events pending at a stop are delivered after a restart from the state dir, each once', async () => {
    dir = mkdtempSync(join(tmpdir(), 'outbox-'))
    const r = await receiver()
    await r.down()
    const target = { url: r.url, secret: 's' }
    const first = createWebhookOutbox({
      target: () => target,
      stateDir: dir,
      retry: { baseDelayMs: 20, maxDelayMs: 50, maxAttempts: 100 },
    })
    first.start()
    const ids = [0, 1, 2].map(
      (i) => first.enqueue({ tenant: 't', type: 'bridge-failed', data: { i } }).eventId,
    )
    await new Promise((resolve) => setTimeout(resolve, 100))
    await first.stop()
    expect(first.list('t').events.every((e) => e.status === 'pending' && e.attempts.length > 0)).toBe(true)

    await r.up()
    const second = createWebhookOutbox({ target: () => target, stateDir: dir, retry: { baseDelayMs: 20 } })
    expect(
      second
        .list('t')
        .events.map((e) => e.eventId)
        .sort(),
    ).toEqual([...ids].sort())
    second.start()
    cleanups.push(() => second.stop())
    await r.waitFor(() => r.received.length === 3)
    await settled(second)
    expect(r.received.map((hit) => (hit.body as { eventId: string }).eventId).sort()).toEqual([...ids].sort())
    // The attempts of the first run are still in the event's history.
    for (const event of second.list('t').events) {
      expect(event.status).toBe('delivered')
      expect(event.attempts.some((a) => a.error === 'ECONNREFUSED')).toBe(true)
    }
    // A third start finds nothing left to send.
    const third = createWebhookOutbox({ target: () => target, stateDir: dir })
    expect(third.pendingCount()).toBe(0)
    expect(third.list('t').events).toHaveLength(3)
  })
})
