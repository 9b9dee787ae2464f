import type { Hex } from 'viem'
import { BaseError } from '../../spec/BaseError'
import { finishClaim, startClaim, startedClaimEvent } from './claim'
import { describeRevert } from './describeRevert'
import { type FillReturnType, fill } from './fill'
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
    // Read once: the fill and the claims both use it.
    const readFillId = () =>
      retryTransient(context, { what: 'fill id' }, () => getFillId(context.devnet, record.payload))
    let fillId: Hex | undefined
    let filled: FillReturnType
    if (record.status === 'PENDING' || record.status === 'PRECONFIRMED') {
      fillId = await readFillId()
      filled = await fill(context, { id, fillId })
      if (!filled) return
    } else if (record.status !== 'FILLED') return
    const fillMined = filled && ({ type: 'fillMined', ...filled } as const)
    step = 'claim'
    // Filled, and no claim wanted: the intent stays FILLED.
    if (!context.claimAfterFill()) {
      if (fillMined) await context.store.apply(id, fillMined)
      return
    }
    record = getIntentRecord(context, id)
    const { payload } = record
    fillId ??= await readFillId()
    // The claims go out before FILLED is recorded, and FILLED is recorded together with them (one
    // synchronous run of store writes): no reader sees FILLED without its claims' transactions
    // (the public SDK's waitForExecution returns at FILLED and names every claim).
    const started = await Promise.allSettled(
      payload.intentOp.elements.map((_, index) => startClaim(context, { id, index, fillId })),
    )
    const writes: Promise<unknown>[] = []
    if (fillMined) writes.push(context.store.apply(id, fillMined))
    for (const result of started)
      if (result.status === 'fulfilled' && result.value)
        writes.push(context.store.apply(id, startedClaimEvent(result.value)))
    await Promise.all(writes)
    const notStarted = started.find((r) => r.status === 'rejected')
    if (notStarted) throw notStarted.reason
    const finished = await Promise.allSettled(
      started.map((result) =>
        result.status === 'fulfilled' && result.value && 'hash' in result.value
          ? finishClaim(context, { id, ...result.value })
          : undefined,
      ),
    )
    const failed = finished.find((r) => r.status === 'rejected')
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
