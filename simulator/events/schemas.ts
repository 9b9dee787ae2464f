import { z } from 'zod'
import { Address, Hash } from '../../spec/common'

/**
 * The devnet's live feed (`GET /_devnet/events`): what the domain publishes on the event bus, as zod
 * schemas (the explorer page and its tests read them). Devnet extensions, keyed like the control API.
 */

/** The lifecycle statuses an intent moves through, as the status endpoint reports them. */
export const IntentLifecycleStatus = z.enum([
  'PENDING',
  'PRECONFIRMED',
  'FILLED',
  'COMPLETED',
  'FAILED',
  'EXPIRED',
])

/** Every kind of event of the live feed. DESIGN: the devnet explorer. */
export const DEVNET_EVENT_TYPES = ['intent', 'deposit', 'webhook'] as const

/** An intent moved: one event per lifecycle step (submitted, fill sent and mined, each claim, the final status). DESIGN: the devnet explorer. */
export const IntentStepEvent = z.object({
  type: z.literal('intent'),
  id: z.string(),
  intentId: z.string().nullable(),
  step: z.enum(['submitted', 'fillSent', 'fillMined', 'claimSent', 'claimMined', 'failed', 'expired']),
  status: IntentLifecycleStatus,
  chainId: z.number().int().nullable(),
  transactionHash: Hash.nullable(),
  reason: z.string().nullable(),
  /** Devnet clock, unix seconds. */
  at: z.number().int(),
})
export type IntentStepEvent = z.infer<typeof IntentStepEvent>

/** A deposit moved: received, bridge started or complete, or failed with its rule's code (TOKEN-3, BALANCE-3, BRIDGE-5, …). DESIGN: the devnet explorer. */
export const DepositStepEvent = z.object({
  type: z.literal('deposit'),
  depositId: z.string(),
  step: z.enum(['deposit-received', 'bridge-started', 'bridge-complete', 'bridge-failed']),
  status: z.string(),
  chainId: z.number().int(),
  account: Address,
  errorCode: z.string().nullable(),
  at: z.iso.datetime({ offset: true }),
})
export type DepositStepEvent = z.infer<typeof DepositStepEvent>

/** A webhook delivery was attempted: the receiver's answer, whether the request was signed, and what comes next. DESIGN: the devnet explorer. */
export const WebhookDeliveryEvent = z.object({
  type: z.literal('webhook'),
  eventId: z.string(),
  eventType: z.string(),
  status: z.string(),
  attempt: z.object({
    time: z.iso.datetime({ offset: true }),
    url: z.string(),
    durationMs: z.number(),
    statusCode: z.number().int().nullable(),
    error: z.string().nullable(),
    signed: z.boolean(),
  }),
  attempts: z.number().int(),
  nextAttemptAt: z.iso.datetime({ offset: true }).nullable(),
})
export type WebhookDeliveryEvent = z.infer<typeof WebhookDeliveryEvent>

/** One event of `GET /_devnet/events` (the `data:` of a server-sent event whose `event:` is its `type`). DESIGN: the devnet explorer. */
export const DevnetEvent = z.discriminatedUnion('type', [
  IntentStepEvent,
  DepositStepEvent,
  WebhookDeliveryEvent,
])
export type DevnetEvent = z.infer<typeof DevnetEvent>

/**
 * Query of `GET /_devnet/events`: `types` keeps only some kinds (comma-separated); `after` replays
 * the recent events after that seq first (as the `Last-Event-ID` header does for a reconnect).
 * DESIGN: the devnet explorer.
 */
export const DevnetEventsQuery = z.object({
  types: z
    .string()
    .regex(
      /^(intent|deposit|webhook)(,(intent|deposit|webhook))*$/,
      'must list intent, deposit or webhook, comma-separated',
    )
    .optional(),
  after: z.coerce.number().int().min(0).optional(),
})
export type DevnetEventsQuery = z.infer<typeof DevnetEventsQuery>
