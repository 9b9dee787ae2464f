import { recordFailure } from './recordFailure'
import type { SettlementContext } from './types'

/** Parameters of {@link resumeInFlight}. */
export type ResumeInFlightParameters = {
  /** Takes up one intent again (the worker's `settle`). */
  settle: (id: string) => void
}

/**
 * After a (re)start, takes up every intent not in a final status again; one whose chains do not
 * run on this devnet any more is FAILED (`resume: chain N is not running on this devnet`).
 * What already happened on chain is found by `fill` and `claim` (findMined), never sent twice.
 */
export async function resumeInFlight(
  context: Pick<SettlementContext, 'devnet' | 'store' | 'log'>,
  { settle }: ResumeInFlightParameters,
): Promise<void> {
  const known = new Set(context.devnet.chains.map((c) => c.chainId))
  for (const record of context.store.inFlight()) {
    const chainIds = [record.destinationChainId, ...record.claims.map((c) => c.chainId)]
    const missing = chainIds.find((c) => !known.has(c))
    if (missing !== undefined) {
      await recordFailure(context, {
        id: record.id,
        step: 'resume',
        reason: `chain ${missing} is not running on this devnet`,
      })
      continue
    }
    settle(record.id)
  }
}
