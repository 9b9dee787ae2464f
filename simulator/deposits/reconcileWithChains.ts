import type { Hash } from 'viem'
import { isMined } from '../devnet/isMined'
import type { DepositContext } from './types'

/** What {@link reconcileWithChains} changed. */
export type ReconcileDepositsReturnType = {
  /** Deposits forgotten: their deposit transaction is not on the restored chain. */
  forgotten: string[]
  /** Deposits whose payout is not on the restored chain: they are paid out again. */
  repaid: string[]
  /** Chains whose scan cursor was ahead of their head, and was moved back to it. */
  cursorsMoved: number[]
}

/**
 * Checks the processor's state against the chains as they were loaded, before the watcher
 * starts (docs/devnet.md, "Durable state"). When chain state came from a checkpoint older than
 * the processor's own files: a deposit whose transaction the chain does not hold is forgotten
 * (it did not happen on this chain), a payout the chain does not hold is sent again (the old
 * signed payout is dropped: it was never mined and its nonce is free again), and a scan cursor
 * ahead of the chain's head moves back to it, so new deposits are seen.
 *
 * @example
 * await reconcileWithChains(context, { log: console.log })
 */
export async function reconcileWithChains(
  context: Pick<DepositContext, 'chains' | 'store'>,
  options: { log: (line: string) => void },
): Promise<ReconcileDepositsReturnType> {
  const { chains, store } = context
  const onChain = async (chainId: number, hash: Hash): Promise<boolean> => {
    const chain = chains.get(chainId)
    return chain ? isMined(chain.publicClient, hash) : true
  }
  const result: ReconcileDepositsReturnType = { forgotten: [], repaid: [], cursorsMoved: [] }
  for (const [chainId, cursor] of store.cursors) {
    const chain = chains.get(chainId)
    if (!chain) continue
    const head = await chain.publicClient.getBlockNumber({ cacheTime: 0 })
    if (cursor <= head) continue
    store.cursors.set(chainId, head)
    result.cursorsMoved.push(chainId)
    options.log(
      `deposits: chain ${chainId}'s scan cursor (${cursor}) was ahead of its head (${head}); moved back`,
    )
  }
  for (const record of [...store.deposits.values()]) {
    if (!(await onChain(record.chainId, record.transactionHash))) {
      store.deposits.delete(record.id)
      result.forgotten.push(record.id)
      options.log(
        `deposit ${record.id}: its transaction is not on the restored chain ${record.chainId}; forgotten`,
      )
      continue
    }
    const payout = record.bridgeTransactionHash
    if (!payout || !record.target || (await onChain(record.target.chainId, payout))) continue
    delete record.bridgeTransactionHash
    delete record.bridgeRawTransaction
    store.update(record, { status: 'processing' })
    result.repaid.push(record.id)
    options.log(
      `deposit ${record.id}: its payout is not on the restored chain ${record.target.chainId}; paying again`,
    )
  }
  if (result.forgotten.length + result.repaid.length + result.cursorsMoved.length > 0) store.save()
  return result
}
