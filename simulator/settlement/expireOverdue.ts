import type { SettlementContext } from './types'

/**
 * Moves every PENDING intent past its fill deadline on the devnet clock to EXPIRED, except those
 * whose fill was already handed to the sender.
 */
export async function expireOverdue(
  context: Pick<SettlementContext, 'devnet' | 'store' | 'fillCommitted'>,
): Promise<void> {
  const now = context.devnet.now()
  for (const record of context.store.inFlight()) {
    if (record.status !== 'PENDING' || context.fillCommitted.has(record.id) || now <= record.fillDeadline)
      continue
    await context.store.apply(record.id, { type: 'expired' }).catch(() => undefined)
  }
}
