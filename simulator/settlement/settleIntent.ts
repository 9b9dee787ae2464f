import { BaseError } from '../util/BaseError'
import { claim } from './claim'
import { describeRevert } from './describeRevert'
import { fill } from './fill'
import { getFillId } from './getFillId'
import { getIntentRecord } from './getIntentRecord'
import { recordFailure } from './recordFailure'
import { retryTransient } from './retryTransient'
import type { SettlementContext } from './types'

/** Parameters of {@link settleIntent}. */
export type SettleIntentParameters = { id: string }

/**
 * Takes an intent from where it is to a final status: fills it (PENDING, PRECONFIRMED), then
 * claims every origin in parallel (FILLED → COMPLETED). A failure is recorded as FAILED with
 * the step and its reason; this never throws.
 *
 * @example
 * await settleIntent(context, { id: record.id })
 */
export async function settleIntent(
  context: SettlementContext,
  { id }: SettleIntentParameters,
): Promise<void> {
  let step: 'fill' | 'claim' = 'fill'
  try {
    let record = getIntentRecord(context, id)
    if (record.status === 'PENDING' || record.status === 'PRECONFIRMED') await fill(context, { id })
    record = getIntentRecord(context, id)
    if (record.status !== 'FILLED') return
    step = 'claim'
    // Fault: fill but never claim, so the intent stays FILLED.
    if (context.faults.has('intents.skip-claims')) return
    const { payload } = record
    const fillId = await retryTransient(context, { what: 'fill id' }, () =>
      getFillId(context.devnet, payload),
    )
    const results = await Promise.allSettled(
      payload.intentOp.elements.map((_, index) => claim(context, { id, index, fillId })),
    )
    const failed = results.find((r) => r.status === 'rejected')
    if (failed) throw failed.reason
  } catch (error) {
    const reason = error instanceof BaseError ? error.shortMessage : describeRevert(error)
    await recordFailure(context, { id, step, reason }).catch((e) =>
      context.log(`intent ${id}: could not record the failure: ${String(e)}`),
    )
  } finally {
    context.fillCommitted.delete(id)
  }
}
