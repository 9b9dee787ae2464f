import type { Hash } from 'viem'
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
    const { publicClient } = context.devnet.chain(chainId)
    try {
      await publicClient.getTransactionReceipt({ hash })
      return true
    } catch (error) {
      // Only a definite "no such receipt" counts as missing; any other error is not a verdict.
      if ((error as Error).name === 'TransactionReceiptNotFoundError') return false
      throw error
    }
  }
  const rewound: string[] = []
  for (const record of context.store.all()) {
    if (record.status === 'FAILED' || record.status === 'EXPIRED') continue
    const fill = !(await onChain(record.destinationChainId, record.fill.txHash))
    const claimChainIds: number[] = []
    if (!fill)
      for (const claim of record.claims)
        if (!(await onChain(claim.chainId, claim.txHash))) claimChainIds.push(claim.chainId)
    if (!fill && claimChainIds.length === 0) continue
    await context.store.rewind(record.id, { fill, claimChainIds })
    rewound.push(record.id)
    context.log(
      `intent ${record.id}: ${fill ? 'its fill' : `its claim on ${claimChainIds.join(', ')}`} is not on the restored chains; settling it again`,
    )
  }
  return { rewound }
}
