import { z } from 'zod'
import { Address, caip2Record, Hash, IntegerLike, IntegerString } from './common'
import { WebhookEnvelope } from './webhook'

/** Whitelist entry: a token and optional inclusive bounds (spec: Deposit-processor configuration › Whitelist entry). */
export const DepositWhitelistEntry = z
  .object({
    token: Address,
    minAmount: IntegerString.optional(),
    maxAmount: IntegerString.optional(),
  })
  .refine(
    (entry) =>
      entry.minAmount === undefined ||
      entry.maxAmount === undefined ||
      BigInt(entry.minAmount) <= BigInt(entry.maxAmount),
    { message: 'minAmount must not exceed maxAmount', path: ['minAmount'] },
  )
export type DepositWhitelistEntry = z.infer<typeof DepositWhitelistEntry>

/** Sponsorship values the spec and the public service use (spec: Deposit-processor configuration; facts §1). */
export const SPONSORSHIP_VALUES = ['all', 'deployed', 'none'] as const

/** Per source chain: who pays which fee type (spec: Deposit-processor configuration). */
export const SponsorshipEntry = z.object({
  gas: z.enum(['all', 'deployed', 'none']).optional(),
  bridging: z.enum(['all', 'none']).optional(),
  swap: z.enum(['all', 'none']).optional(),
  protocolFee: z.enum(['all', 'none']).optional(),
})
export type SponsorshipEntry = z.infer<typeof SponsorshipEntry>

/** An http(s) URL. */
const HttpUrl = z.url({ protocol: /^https?$/, error: 'must be an http or https URL' })

/**
 * `params` of POST /deposit-processor/setup: every field optional; `null` clears webhookUrl,
 * webhookSecret and maxPriceDeviationBps, `{}` clears sponsorship and depositWhitelist
 * (spec: Deposit-processor configuration; Endpoints › POST /deposit-processor/setup).
 */
export const DepositProcessorParams = z.object({
  webhookUrl: HttpUrl.nullable().optional(),
  webhookSecret: z.string().min(1, 'must not be empty (send null to clear it)').nullable().optional(),
  sponsorship: caip2Record(SponsorshipEntry).optional(),
  depositWhitelist: caip2Record(z.array(DepositWhitelistEntry)).optional(),
  maxPriceDeviationBps: z.number().int('must be an integer').min(0).max(10_000).nullable().optional(),
})
export type DepositProcessorParams = z.infer<typeof DepositProcessorParams>

/** Body of POST /deposit-processor/setup (spec: Endpoints › POST /deposit-processor/setup). */
export const DepositProcessorSetupRequest = z.object({ params: DepositProcessorParams })
export type DepositProcessorSetupRequest = z.infer<typeof DepositProcessorSetupRequest>

/** Answer of POST /deposit-processor/setup (facts §1: `{message}`). */
export const DepositProcessorSetupResponse = z.looseObject({ message: z.string() })
export type DepositProcessorSetupResponse = z.infer<typeof DepositProcessorSetupResponse>

/** The configuration read back by GET /deposit-processor/setup, the secret masked (facts §1). */
export const DepositProcessorConfig = z.looseObject({
  webhookUrl: z.string().nullable(),
  webhookSecret: z.string().nullable(),
  sponsorship: z.record(z.string(), z.unknown()),
  depositWhitelist: z.record(z.string(), z.array(z.unknown())),
  maxPriceDeviationBps: z.number().int(),
})
export type DepositProcessorConfig = z.infer<typeof DepositProcessorConfig>

/** Body of POST /deposit-processor/register (facts §1, an extension). */
export const DepositProcessorRegisterRequest = z.object({
  account: Address,
  targetChainId: IntegerLike,
  /** Address or symbol of the token deposits are bridged into; default: the same token. */
  targetToken: z.string().min(1).optional(),
})
export type DepositProcessorRegisterRequest = z.infer<typeof DepositProcessorRegisterRequest>

/** Answer of POST /deposit-processor/register: the registration as stored (facts §1, an extension). */
export const DepositProcessorRegisterResponse = z.looseObject({
  message: z.string(),
  account: Address,
  targetChainId: z.number().int(),
  /** The token deposits are bridged into; null: the deposited token's counterpart on the target chain. */
  targetToken: Address.nullable(),
})
export type DepositProcessorRegisterResponse = z.infer<typeof DepositProcessorRegisterResponse>

/** Deposit statuses of the public service (facts §1). */
export const DEPOSIT_STATUSES = [
  'processing',
  'delayed',
  'expecting_refund',
  'completed',
  'failed',
  'rejected',
  'refunded',
  'ignored',
] as const

/** A deposit the processor saw (facts §1: GET /deposit-processor/deposits/{id}). */
export const Deposit = z.looseObject({
  id: z.string(),
  account: Address,
  chainId: z.number().int(),
  token: Address,
  amount: IntegerString,
  sender: Address,
  transactionHash: Hash,
  status: z.string(),
  errorCode: z.string().optional(),
})
export type Deposit = z.infer<typeof Deposit>

/** Query of GET /deposit-processor/deposits (facts §1). */
export const DepositListQuery = z.object({
  account: Address.optional(),
  status: z.string().optional(),
  txHash: Hash.optional(),
  limit: z.coerce.number().int().min(1).max(100).optional(),
  cursor: z.string().optional(),
})
export type DepositListQuery = z.infer<typeof DepositListQuery>

/** Answer of GET /deposit-processor/deposits (facts §1), with cursor paging. */
export const DepositList = z.looseObject({ deposits: z.array(Deposit), nextCursor: z.string().nullable() })
export type DepositList = z.infer<typeof DepositList>

/** Query of GET /deposit-processor/webhooks/events (facts §1), with cursor paging. */
export const WebhookEventListQuery = z.object({
  limit: z.coerce.number().int().min(1).max(100).optional(),
  cursor: z.string().optional(),
})
export type WebhookEventListQuery = z.infer<typeof WebhookEventListQuery>

/** One delivery attempt of a webhook event: the receiver's status, or why no answer came (facts §1: webhook events). */
export const WebhookDeliveryAttempt = z.looseObject({
  time: z.iso.datetime({ offset: true }),
  url: z.string(),
  durationMs: z.number().min(0),
  statusCode: z.number().int().optional(),
  /** `ECONNREFUSED`, `timeout after 5000 ms`, … */
  error: z.string().optional(),
  /** Whether the request carried an `X-Webhook-Signature` (a devnet extension). */
  signed: z.boolean().optional(),
})
export type WebhookDeliveryAttempt = z.infer<typeof WebhookDeliveryAttempt>

/** Delivery statuses of a webhook event on this devnet (facts §1 names none; docs/deposit-processor.md › Delivery). */
export const WEBHOOK_EVENT_STATUSES = ['pending', 'delivered', 'failed', 'skipped'] as const

/**
 * A webhook event with its delivery: what GET /deposit-processor/webhooks/events lists, and what
 * POST …/events/{id}/resend and POST /deposit-processor/webhooks/test answer (facts §1).
 */
export const WebhookEvent = z.looseObject({
  eventId: z.string().min(1),
  type: z.string(),
  time: z.iso.datetime({ offset: true }),
  /** One of {@link WEBHOOK_EVENT_STATUSES} on this devnet. */
  status: z.string(),
  attempts: z.array(WebhookDeliveryAttempt),
  /** When the next attempt is due while the event is pending; null otherwise. */
  nextAttemptAt: z.iso.datetime({ offset: true }).nullable(),
  /** The body sent, exactly as signed. */
  payload: WebhookEnvelope,
})
export type WebhookEvent = z.infer<typeof WebhookEvent>

/** Answer of GET /deposit-processor/webhooks/events (facts §1): newest first, with cursor paging. */
export const WebhookEventList = z.looseObject({
  events: z.array(WebhookEvent),
  nextCursor: z.string().nullable(),
})
export type WebhookEventList = z.infer<typeof WebhookEventList>

/**
 * Body of POST /deposit-processor/webhooks/events/resend-failed (a devnet extension of facts §1's
 * resend): how many failed events at most. Optional, and null means absent: Fastify hands a POST
 * sent without a body to validation as null (curl -X POST with no data).
 */
export const WebhookResendFailedRequest = z
  .object({ limit: z.number().int().min(1).max(1_000).optional() })
  .nullish()
export type WebhookResendFailedRequest = z.infer<typeof WebhookResendFailedRequest>

/** Answer of POST /deposit-processor/webhooks/events/resend-failed (extends facts §1's resend): the failed events queued again. */
export const WebhookResendFailedResponse = z.looseObject({
  resent: z.number().int().min(0),
  eventIds: z.array(z.string()),
})
export type WebhookResendFailedResponse = z.infer<typeof WebhookResendFailedResponse>
