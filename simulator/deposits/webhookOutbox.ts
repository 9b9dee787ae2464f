import { randomUUID } from 'node:crypto'
import { join } from 'node:path'
import type { WebhookEvent, WebhookEventList } from '../../spec'
import type { EventBus } from '../events/eventBus'
import { appendJsonLineSync, readJsonLinesSync, writeJsonLinesAtomicSync } from '../util/persistence'
import { deliverWebhook, isDelivered } from './deliverWebhook'
import { type PageQuery, paginate } from './paginate'
import { DEFAULT_RETRY_POLICY, type RetryPolicy, retryDelayMs, type WebhookEventRecord } from './webhookRetry'

export {
  DEFAULT_RETRY_POLICY,
  type RetryPolicy,
  retryDelayMs,
  type WebhookEventRecord,
  type WebhookEventStatus,
} from './webhookRetry'

/**
 * Longest real time the outbox sleeps while events are pending. A devnet clock advance the
 * service makes wakes it at once ({@link WebhookOutbox.clockMoved}); this bounds how late it
 * notices any other change of its clock.
 */
const POLL_MS = 1_000

/** Default real time between two probes of a failing receiver (see `probeIntervalMs`). */
export const DEFAULT_PROBE_INTERVAL_MS = 2_000

/** Where a tenant's events go right now. */
export type WebhookTarget = { url: string; secret: string | null }

/** Parameters of {@link createWebhookOutbox}. */
export type CreateWebhookOutboxParameters = {
  /** The tenant's current webhook URL and secret (read at each attempt), or undefined when none is set. */
  target: (tenant: string) => WebhookTarget | undefined
  /**
   * With a dir, every event and attempt is appended to `webhook-outbox.jsonl` there before it is
   * acted on (a new event durably: flushed to disk before its first attempt).
   */
  stateDir?: string | undefined
  retry?: Partial<RetryPolicy> | undefined
  /** Deliveries in flight at once. Default 8. */
  concurrency?: number | undefined
  /** Timestamps of events and attempts (the devnet clock). Default: the wall clock. */
  now?: (() => number) | undefined
  /** Jitter source in [0, 1). Default Math.random. */
  random?: (() => number) | undefined
  /** Each delivery attempt is published here (the explorer's live feed). */
  events?: Pick<EventBus, 'publish'> | undefined
  /**
   * Real time between probes of a receiver whose events wait out a backoff (default 2 s; 0: no
   * probe). A probe sends the tenant's oldest waiting event early: a 2xx delivers it and wakes
   * the tenant's other events; a failure changes nothing (not recorded, no backoff step), so a
   * receiver that answers again gets its events within seconds, not at its next retry slot.
   */
  probeIntervalMs?: number | undefined
}

/** Parameters of {@link WebhookOutbox.enqueue}. */
export type EnqueueParameters = {
  tenant: string
  type: string
  data: Record<string, unknown>
  eventId?: string | undefined
  /** Marks a test event (`test: true` in the envelope). */
  test?: boolean | undefined
}

/** The durable webhook outbox. */
export type WebhookOutbox = ReturnType<typeof createWebhookOutbox>

/**
 * Creates the webhook outbox: every event is stored (with a stable `eventId` and its final
 * body) before the first attempt; deliveries that get no 2xx (an error status, a timeout, a
 * refused connection) are retried with exponential backoff and jitter until
 * `retry.maxAttempts`, then marked failed. With a state dir nothing is lost across a restart:
 * pending events resume on `start()` (at-least-once; receivers drop duplicates by eventId).
 *
 * @example
 * const outbox = createWebhookOutbox({ target: () => ({ url: 'http://127.0.0.1:9000/hook', secret: 's' }) })
 * outbox.start()
 * outbox.enqueue({ tenant: 't', type: 'bridge-failed', data: { errorCode: 'TOKEN-3' } })
 */
export function createWebhookOutbox(parameters: CreateWebhookOutboxParameters) {
  const policy: RetryPolicy = { ...DEFAULT_RETRY_POLICY, ...parameters.retry }
  const concurrency = parameters.concurrency ?? 8
  const now = parameters.now ?? Date.now
  const random = parameters.random ?? Math.random
  const logPath = parameters.stateDir ? join(parameters.stateDir, 'webhook-outbox.jsonl') : undefined

  const events = new Map<string, WebhookEventRecord>()
  const pending = new Set<WebhookEventRecord>()
  const inFlight = new Set<string>()
  const flights = new Set<Promise<void>>()
  const listeners = new Set<() => void>()
  let seq = 0
  let running = false
  let timer: NodeJS.Timeout | undefined
  let probeTimer: NodeJS.Timeout | undefined
  const probeIntervalMs = parameters.probeIntervalMs ?? DEFAULT_PROBE_INTERVAL_MS

  if (logPath) {
    for (const record of readJsonLinesSync<WebhookEventRecord>(logPath)) {
      events.set(record.eventId, record)
      seq = Math.max(seq, record.seq)
    }
    for (const record of events.values()) if (record.status === 'pending') pending.add(record)
    for (const record of events.values()) record.roundStartedAt ??= now()
    // Compact: one line per event (a torn last line dropped), written atomically, then appended to.
    const lines = [...events.values()].sort((a, b) => a.seq - b.seq)
    writeJsonLinesAtomicSync(logPath, lines)
  }

  /** Appends the event's new state to the log; `durable` for a new event, which must survive a crash. */
  const persist = (record: WebhookEventRecord, durable = false) => {
    if (logPath) appendJsonLineSync(logPath, record, { durable })
    for (const listener of listeners) listener()
  }

  const view = (record: WebhookEventRecord): WebhookEvent => ({
    eventId: record.eventId,
    type: record.type,
    time: record.time,
    status: record.status,
    attempts: record.attempts.map((attempt) => ({ ...attempt })),
    nextAttemptAt: record.nextAttemptAt === null ? null : new Date(record.nextAttemptAt).toISOString(),
    payload: JSON.parse(record.body),
  })

  const windowEnd = (record: WebhookEventRecord) => (record.roundStartedAt ?? now()) + policy.windowMs

  /** Starts a fresh retry window for a resent event. */
  function rearm(record: WebhookEventRecord): void {
    record.status = 'pending'
    record.round = 0
    record.roundStartedAt = now()
    record.nextAttemptAt = now()
    pending.add(record)
    persist(record)
  }

  /**
   * The tenant's receiver answers again: its events waiting out a backoff go now (a few at a time,
   * `concurrency` bounds them) instead of each at its own, possibly much later, retry time. After
   * a 10-minute outage the backoff has grown to minutes; without this the last event would
   * arrive up to one full delay after the receiver is back.
   */
  function wakeTenant(tenant: string): void {
    const at = now()
    for (const waiting of pending)
      if (waiting.tenant === tenant && (waiting.nextAttemptAt ?? at) > at) waiting.nextAttemptAt = at
  }

  /**
   * A probe attempt that failed changes nothing: the event keeps its place and backoff, and the
   * attempt is not recorded (a receiver down for a day would otherwise gather thousands).
   */
  async function attempt(record: WebhookEventRecord, probe = false): Promise<void> {
    const target = parameters.target(record.tenant)
    if (probe && !target) return
    if (!target) {
      record.status = 'skipped'
      record.nextAttemptAt = null
      pending.delete(record)
      persist(record)
      return
    }
    const result = await deliverWebhook({
      url: target.url,
      secret: target.secret,
      body: record.body,
      timeoutMs: policy.timeoutMs,
      time: now(),
    })
    if (probe && !isDelivered(result)) return
    record.attempts.push(result)
    record.round += 1
    if (isDelivered(result)) {
      record.status = 'delivered'
      record.nextAttemptAt = null
      pending.delete(record)
      wakeTenant(record.tenant)
    } else if (record.round >= policy.maxAttempts || now() >= windowEnd(record)) {
      record.status = 'failed'
      record.nextAttemptAt = null
      pending.delete(record)
    } else {
      record.status = 'pending'
      // The last attempt falls at the window's end at the latest: never fail before trying then.
      record.nextAttemptAt = Math.min(windowEnd(record), now() + retryDelayMs(record.round, policy, random))
      pending.add(record)
    }
    persist(record)
    parameters.events?.publish({
      type: 'webhook',
      tenant: record.tenant,
      eventId: record.eventId,
      eventType: record.type,
      status: record.status,
      attempt: {
        time: result.time,
        url: result.url,
        durationMs: result.durationMs,
        statusCode: result.statusCode ?? null,
        error: result.error ?? null,
        signed: result.signed ?? false,
      },
      attempts: record.attempts.length,
      nextAttemptAt: record.nextAttemptAt === null ? null : new Date(record.nextAttemptAt).toISOString(),
    })
  }

  function launch(record: WebhookEventRecord, probe = false): Promise<void> {
    inFlight.add(record.eventId)
    const flight = attempt(record, probe)
      .catch(() => undefined)
      .finally(() => {
        inFlight.delete(record.eventId)
        flights.delete(flight)
        pump()
      })
    flights.add(flight)
    return flight
  }

  function pump(): void {
    if (!running) return
    if (timer) clearTimeout(timer)
    timer = undefined
    const wall = now()
    let nextDue = Number.POSITIVE_INFINITY
    const due: WebhookEventRecord[] = []
    for (const record of pending) {
      if (inFlight.has(record.eventId)) continue
      const at = record.nextAttemptAt ?? wall
      if (at <= wall) due.push(record)
      else nextDue = Math.min(nextDue, at)
    }
    due.sort((a, b) => (a.nextAttemptAt ?? 0) - (b.nextAttemptAt ?? 0) || a.seq - b.seq)
    for (const record of due) {
      if (inFlight.size >= concurrency) break
      launch(record)
    }
    if (inFlight.size < concurrency && nextDue !== Number.POSITIVE_INFINITY) {
      // Capped: a clock moved by other means than clockMoved makes due events go within POLL_MS.
      timer = setTimeout(pump, Math.min(POLL_MS, Math.max(0, nextDue - wall)))
      timer.unref()
    }
  }

  /**
   * Probes each tenant whose events all wait out a backoff (none in flight, none due within a
   * probe interval): its oldest waiting event goes now, as a probe (see `probeIntervalMs`).
   */
  function probeWaiting(): void {
    if (!running) return
    const busy = new Set<string>()
    for (const eventId of inFlight) {
      const tenant = events.get(eventId)?.tenant
      if (tenant !== undefined) busy.add(tenant)
    }
    const soon = now() + probeIntervalMs
    const oldest = new Map<string, WebhookEventRecord>()
    for (const record of pending) {
      if (busy.has(record.tenant)) continue
      if ((record.nextAttemptAt ?? 0) <= soon) {
        busy.add(record.tenant) // it goes soon anyway: no probe needed
        oldest.delete(record.tenant)
        continue
      }
      const first = oldest.get(record.tenant)
      if (!first || record.seq < first.seq) oldest.set(record.tenant, record)
    }
    for (const record of oldest.values()) {
      if (inFlight.size >= concurrency) break
      launch(record, true)
    }
  }

  return {
    /** The retry policy in force. */
    policy,

    /** Stores an event (before any attempt) and schedules its delivery; an eventId seen before is not stored twice. */
    enqueue(event: EnqueueParameters): WebhookEvent {
      const eventId = event.eventId ?? `evt_${randomUUID()}`
      const existing = events.get(eventId)
      if (existing) return view(existing)
      const time = new Date(now()).toISOString()
      const record: WebhookEventRecord = {
        seq: ++seq,
        eventId,
        tenant: event.tenant,
        type: event.type,
        time,
        body: JSON.stringify({
          version: '1.0',
          type: event.type,
          eventId,
          time,
          ...(event.test ? { test: true } : {}),
          data: event.data,
        }),
        status: 'pending',
        attempts: [],
        round: 0,
        nextAttemptAt: now(),
        roundStartedAt: now(),
      }
      events.set(eventId, record)
      pending.add(record)
      persist(record, true)
      pump()
      return view(record)
    },

    /** A tenant's events, newest first, with their attempts; `cursor` is the previous page's `nextCursor`. */
    list(tenant: string, query: PageQuery = {}): WebhookEventList {
      const mine = [...events.values()].filter((record) => record.tenant === tenant)
      const { items, nextCursor } = paginate(mine, query)
      return { events: items.map(view), nextCursor }
    },

    /** One event of `tenant`, or undefined. */
    get(tenant: string, eventId: string): WebhookEvent | undefined {
      const record = events.get(eventId)
      return record && record.tenant === tenant ? view(record) : undefined
    },

    /** Sends a tenant's event again now (a fresh retry budget); resolves after that attempt. */
    async resend(tenant: string, eventId: string): Promise<WebhookEvent | undefined> {
      const record = events.get(eventId)
      if (!record || record.tenant !== tenant) return undefined
      rearm(record)
      if (!inFlight.has(eventId)) await launch(record)
      else await Promise.all([...flights])
      return view(record)
    },

    /** Sends every failed event of `tenant` again (a fresh retry window each); answers their ids. */
    resendFailed(tenant: string, limit = 1_000): string[] {
      const failed = [...events.values()]
        .filter((record) => record.tenant === tenant && record.status === 'failed')
        .slice(0, limit)
      for (const record of failed) rearm(record)
      pump()
      return failed.map((record) => record.eventId)
    },

    /** Starts delivering (pending events of a previous run first). */
    start(): void {
      running = true
      if (probeIntervalMs > 0 && !probeTimer) {
        probeTimer = setInterval(probeWaiting, probeIntervalMs)
        probeTimer.unref()
      }
      pump()
    },

    /** Stops scheduling and waits for the attempts in flight. */
    async stop(): Promise<void> {
      running = false
      if (timer) clearTimeout(timer)
      timer = undefined
      if (probeTimer) clearInterval(probeTimer)
      probeTimer = undefined
      await Promise.all([...flights])
    },

    /**
     * The clock `now` reads moved (the devnet clock advanced, or went back to a snapshot): events
     * it made due go now, not at the outbox's next wake-up (up to POLL_MS of real time later).
     * Retry times are unchanged: only when they are checked.
     */
    clockMoved(): void {
      pump()
    },

    /** Calls `listener` after every change of any event (tests and benches wait with it). */
    onChange(listener: () => void): () => void {
      listeners.add(listener)
      return () => listeners.delete(listener)
    },

    /** Number of events not yet delivered, failed or skipped. */
    pendingCount: (): number => pending.size,
  }
}
