/** 0x-prefixed hex (viem's Hex; routes do not import viem). */
type Hex = `0x${string}`

import type { BlancIntentStatus, IntentStatus } from '../../../spec'
import type { IntentRecord } from '../../intents/intentStore'
import type { SignedIntent } from '../../intents/types'

/**
 * The alps answer of `GET /intent-operation/{id}` (facts §1) for an intent record.
 *
 * @example
 * const status = toAlpsStatus(await intents.getIntent(id))
 */
export function toAlpsStatus(record: IntentRecord<SignedIntent>): IntentStatus {
  // Keys in the order the route's schema sends them (its own, then the others as built): the
  // answer is sent as built (trustResponse), byte for byte what the schema's check would send.
  return {
    status: record.status,
    fillTimestamp: record.fill.timestamp,
    fillTransactionHash: record.fill.txHash,
    destinationChainId: record.destinationChainId,
    userAddress: record.sponsor,
    claims: record.claims.map((c) => ({
      chainId: c.chainId,
      status: c.status,
      claimTimestamp: c.timestamp,
      claimTransactionHash: c.txHash,
    })),
    id: record.id,
    recipient: record.recipient,
    ...(record.failure ? { failureReason: `${record.failure.step}: ${record.failure.reason}` } : {}),
  }
}

/** The FILL item's status, from the intent's. */
function fillStatus(record: IntentRecord<SignedIntent>): string {
  if (record.fill.timestamp !== null) return 'COMPLETED'
  if (record.status === 'PENDING') return 'PENDING'
  if (record.status === 'PRECONFIRMED') return 'PRECONFIRMED'
  return record.status
}

/**
 * The blanc answer of `GET /intents/{id}`: operations per chain, with FILL and CLAIM items (facts §1).
 *
 * @example
 * const status = toBlancStatus(await intents.findIntent(intentId))
 */
export function toBlancStatus(record: IntentRecord<SignedIntent>): BlancIntentStatus {
  type Item = { type: 'CLAIM' | 'FILL'; status: string; txHash: Hex | null; timestamp: number | null }
  const operations = new Map<number, { chain: number; items: Item[] }>()
  const at = (chain: number) => {
    let op = operations.get(chain)
    if (!op) {
      op = { chain, items: [] }
      operations.set(chain, op)
    }
    return op
  }
  for (const claim of record.claims)
    at(claim.chainId).items.push({
      type: 'CLAIM',
      status: claim.status,
      txHash: claim.txHash,
      timestamp: claim.timestamp,
    })
  at(record.destinationChainId).items.push({
    type: 'FILL',
    status: fillStatus(record),
    txHash: record.fill.txHash,
    timestamp: record.fill.timestamp,
  })
  // Keys in the order of the route's schema, as in toAlpsStatus.
  return {
    intentId: record.intentId ?? record.id,
    status: record.status,
    operations: [...operations.values()],
    id: record.id,
    ...(record.failure ? { failureReason: `${record.failure.step}: ${record.failure.reason}` } : {}),
  }
}
