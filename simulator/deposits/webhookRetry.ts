import type { WEBHOOK_EVENT_STATUSES } from '../../spec'
import type { WebhookAttempt } from './deliverWebhook'

/** How failed deliveries are retried. */
export type RetryPolicy = {
  /** Attempts per (re)send before the event is marked failed. Default 1,000 (the window ends first). */
  maxAttempts: number
  /** How long, in devnet-clock ms from its (re)send, an event is retried before it is failed. Default 24 h. */
  windowMs: number
  /** Delay before the first retry; doubles each time. Default 500 ms. */
  baseDelayMs: number
  /** Cap of one delay. Default 1 h. */
  maxDelayMs: number
  /** A receiver that has not answered by then counts as a failed attempt. Default 5 s. */
  timeoutMs: number
}

/** The retry policy of docs/deposit-processor.md › Delivery: 24 h of devnet clock, 0.5 s doubling up to 1 h, 5 s timeout. */
export const DEFAULT_RETRY_POLICY: RetryPolicy = {
  maxAttempts: 1_000,
  windowMs: 24 * 60 * 60 * 1000,
  baseDelayMs: 500,
  maxDelayMs: 60 * 60 * 1000,
  timeoutMs: 5_000,
}

/** pending: to be (re)tried; delivered: a 2xx came back; failed: retries used up; skipped: no webhookUrl was configured. */
export type WebhookEventStatus = (typeof WEBHOOK_EVENT_STATUSES)[number]

/** An event of the outbox, as stored. */
export type WebhookEventRecord = {
  seq: number
  eventId: string
  tenant: string
  type: string
  time: string
  /** The exact body sent every time (the signature covers these bytes). */
  body: string
  status: WebhookEventStatus
  attempts: WebhookAttempt[]
  /** Attempts since the last (re)send: the retry budget counts these. */
  round: number
  /** Devnet-clock ms of the next attempt while pending. */
  nextAttemptAt: number | null
  /** Devnet-clock ms the current retry window began (the event's creation or last resend). */
  roundStartedAt?: number | undefined
}

/** Exponential backoff with equal jitter: half the doubled delay, plus a random part of the other half. */
export function retryDelayMs(
  round: number,
  policy: Pick<RetryPolicy, 'baseDelayMs' | 'maxDelayMs'>,
  random: () => number = Math.random,
): number {
  const delay = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** Math.max(0, round - 1))
  return Math.round(delay / 2 + (random() * delay) / 2)
}
