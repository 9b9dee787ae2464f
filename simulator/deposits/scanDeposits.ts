import { scanBlocks } from './chainWatcher'
import { receiveDeposit } from './receiveDeposit'
import type { DepositChain, DepositContext } from './types'

/** Parameters of {@link scanDeposits}. */
export type ScanDepositsParameters = {
  chain: DepositChain
  /** Largest block range of one `scanBlocks` call. */
  maxBlockRange: bigint
}

/**
 * Scans one chain from its cursor to its head, in ranges of at most `maxBlockRange` blocks, and
 * receives every deposit to a registered account. A chain seen for the first time is watched
 * from its current head, not its history. Deposits and events are stored before the cursor moves
 * past their block; their deterministic ids make a replay after a crash harmless.
 */
export async function scanDeposits(
  context: DepositContext,
  parameters: ScanDepositsParameters,
): Promise<void> {
  const { chain, maxBlockRange } = parameters
  const { store } = context
  const head = await chain.publicClient.getBlockNumber({ cacheTime: 0 })
  const stored = store.cursors.get(chain.chainId)
  if (stored === undefined) {
    store.cursors.set(chain.chainId, head)
    return store.save()
  }
  const relayers = [...context.chains.values()].map((c) => c.relayer.account.address)
  for (let cursor = stored; cursor < head; ) {
    const from = cursor + 1n
    const to = head < from + maxBlockRange - 1n ? head : from + maxBlockRange - 1n
    const observed = await scanBlocks({
      client: chain.publicClient,
      chainId: chain.chainId,
      fromBlock: from,
      toBlock: to,
      accounts: store.config.accounts(),
      ignoreSenders: relayers,
    })
    for (const deposit of observed) receiveDeposit(context, deposit)
    cursor = to
    store.cursors.set(chain.chainId, to)
    store.save()
  }
}
