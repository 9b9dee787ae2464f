import { z } from 'zod'
import { Address, Hash } from './common'

/** Webhook event types of the public service (facts §1; the spec names bridge-failed). */
export const WEBHOOK_EVENT_TYPES = [
  'deposit-received',
  'deposit-rejected',
  'deposit-delayed',
  'bridge-started',
  'bridge-complete',
  'bridge-delayed',
  'bridge-failed',
  'deposit-refunded',
  'error',
] as const

/** The webhook envelope (spec: Events; facts §1). */
export const WebhookEnvelope = z.looseObject({
  version: z.literal('1.0'),
  type: z.string(),
  eventId: z.string().min(1),
  time: z.iso.datetime({ offset: true }),
  test: z.boolean().optional(),
  data: z.record(z.string(), z.unknown()),
})
export type WebhookEnvelope = z.infer<typeof WebhookEnvelope>

/** `data` of a bridge-failed event (spec: Events; Errors; facts §1). */
export const BridgeFailedData = z.looseObject({
  errorCode: z.string(),
  account: Address,
  message: z.string().optional(),
  deposit: z.looseObject({
    transactionHash: Hash,
    chain: z.union([z.number(), z.string()]),
    token: Address,
    amount: z.string(),
    sender: Address,
  }),
})
export type BridgeFailedData = z.infer<typeof BridgeFailedData>

/** The error codes a rejected deposit carries (spec: Errors). */
export const DEPOSIT_ERROR_CODES = ['TOKEN-3', 'BALANCE-3', 'BRIDGE-5'] as const
