import type { Hash } from 'viem'
import { isMined } from '../devnet/isMined'
import type { SettlementContext } from './types'

/** What {@link reconcileWithChains} changed. */
export type ReconcileWithChainsReturnType = {
  /** Ids of intents taken back to an earlier step: their recorded transactions were not on chain. */
  rewound: string[]
}

/**
 * Checks every intent's recorded fill and claim transactions against the chains as they were
 * loaded, before the relayer resumes. The chains can be older than the intent store when their
 * state came from a checkpoint (the devnet was killed with its Anvils: docs/devnet.md, "Durable
 * state"); an intent must then not claim a payment the chains do not hold. Such an intent is
 * rewound to the last step the chains hold (`rewindLifecycle`), and the relayer settles it again.
 * Chains this devnet does not run are left to `resumeInFlight`.
 *
 * @example
 * const { rewound } = await reconcileWithChains(context)
 */
export async function reconcileWithChains(
  context: Pick<SettlementContext, 'devnet' | 'store' | 'log'>,
): Promise<ReconcileWithChainsReturnType> {
  const running = new Set(context.devnet.chains.map((chain) => chain.chainId))
  const onChain = async (chainId: number, hash: Hash | null): Promise<boolean> => {
    if (hash === null || !running.has(chainId)) return true
    return isMined(context.devnet.chain(chainId).publicClient, hash)
  }
  const rewound: string[] = []
  const check = async (record: ReturnType<typeof context.store.all>[number]) => {
    if (record.status === 'FAILED' || record.status === 'EXPIRED') return
    const fill = !(await onChain(record.destinationChainId, record.fill.txHash))
    const claims = fill
      ? []
      : await Promise.all(
          record.claims.map(async (c) => ((await onChain(c.chainId, c.txHash)) ? [] : [c.chainId])),
        )
    const claimChainIds = claims.flat()
    if (!fill && claimChainIds.length === 0) return
    await context.store.rewind(record.id, { fill, claimChainIds })
    rewound.push(record.id)
    context.log(
      `intent ${record.id}: ${fill ? 'its fill' : `its claim on ${claimChainIds.join(', ')}`} is not on the restored chains; settling it again`,
    )
  }
  // A bounded number at a time: a store of thousands of intents is checked in seconds, not minutes.
  const records = context.store.all()
  for (let i = 0; i < records.length; i += 32) await Promise.all(records.slice(i, i + 32).map(check))
  return { rewound }
}
