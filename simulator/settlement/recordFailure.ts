import { getIntentRecord } from './getIntentRecord'
import type { SettlementContext, SettlementStep } from './types'

/** Parameters of {@link recordFailure}. */
export type RecordFailureParameters = { id: string; step: SettlementStep; reason: string }

/** Moves an intent to FAILED (`failureReason` = `step: reason`), unless it is final already. */
export async function recordFailure(
  context: Pick<SettlementContext, 'store' | 'log'>,
  { id, step, reason }: RecordFailureParameters,
): Promise<void> {
  const record = getIntentRecord(context, id)
  if (record.status === 'COMPLETED' || record.status === 'FAILED' || record.status === 'EXPIRED') return
  context.log(`intent ${id}: FAILED at ${step}: ${reason}`)
  await context.store.apply(id, { type: 'failed', step, reason })
}
