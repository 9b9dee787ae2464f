import { z } from 'zod'
import { Address, Hash } from './common'

/** Intent statuses of the public service (facts §1); unknown values are allowed (spec: Versioning §4). */
export const INTENT_STATUSES = [
  'PENDING',
  'PRECONFIRMED',
  'CLAIMED',
  'FILLED',
  'COMPLETED',
  'FAILED',
  'EXPIRED',
] as const
/** Claim statuses of the public service (facts §1). */
export const CLAIM_STATUSES = ['PENDING', 'EXPIRED', 'PRECONFIRMED', 'COMPLETED', 'FAILED'] as const

/** Body of GET /intent-operation/{id} (spec: Endpoints › Other endpoints: not shown; facts §1). */
export const IntentStatus = z.looseObject({
  status: z.string(),
  fillTimestamp: z.number().nullable().optional(),
  fillTransactionHash: Hash.nullable().optional(),
  destinationChainId: z.number(),
  userAddress: Address,
  claims: z.array(
    z.looseObject({
      chainId: z.number(),
      status: z.string(),
      claimTimestamp: z.number().nullable().optional(),
      claimTransactionHash: Hash.nullable().optional(),
    }),
  ),
})
export type IntentStatus = z.infer<typeof IntentStatus>

/** Body of blanc GET /intents/{id} (facts §1: operations per chain with CLAIM / FILL items). */
export const BlancIntentStatus = z.looseObject({
  intentId: z.string(),
  status: z.string(),
  operations: z.array(
    z.looseObject({
      chain: z.number(),
      items: z.array(
        z.looseObject({
          type: z.string(),
          status: z.string(),
          txHash: Hash.nullable().optional(),
          timestamp: z.number().nullable().optional(),
        }),
      ),
    }),
  ),
})
export type BlancIntentStatus = z.infer<typeof BlancIntentStatus>
