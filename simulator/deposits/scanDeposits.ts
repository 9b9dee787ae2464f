import {
  depositsInBlock,
  READ_AHEAD,
  type ReadHeadReturnType,
  readHead,
  readWholeBlocks,
  scanBlocks,
} from './chainWatcher'
import { receiveDeposit } from './receiveDeposit'
import type { DepositChain, DepositContext } from './types'

/** Blocks scanned again when a chain is found behind the cursor (see scanDeposits). */
const REWIND_BLOCKS = 64n

/** Parameters of {@link scanDeposits}. */
export type ScanDepositsParameters = {
  chain: DepositChain
  /** Largest block range of one `scanBlocks` call. */
  maxBlockRange: bigint
  /**
   * Read the blocks after the cursor with the head (readHead). Worth it only while blocks come:
   * each costs a request (and the node a lookup) in every pass, found or not; the watcher asks
   * for it after a pass that found new blocks. Default true.
   */
  readAhead?: boolean | undefined
  /**
   * The chain's head as its last `newHeads` notification named it (the watcher woken by a block):
   * the blocks after the cursor up to it are read without asking for the head (readWholeBlocks),
   * when they are few ({@link READ_AHEAD}) and the node has them all; else the head is read as usual.
   */
  knownHead?: bigint | undefined
}

/** What one {@link scanDeposits} found: whether the chain had new blocks. */
export type ScanDepositsReturnType = { newBlocks: boolean }

/**
 * Scans one chain from its cursor to its head, in ranges of at most `maxBlockRange` blocks, and
 * receives every deposit to a registered account. The first few blocks after the cursor come
 * whole with the head (readHead: one round trip for a pass that finds a few new blocks); the rest
 * is scanned by range (scanBlocks: logs and blocks). A chain seen for the first time is watched
 * from its current head, not its history. Deposits and events are stored before the cursor moves
 * past their block; their deterministic ids make a replay after a crash harmless.
 */
export async function scanDeposits(
  context: DepositContext,
  parameters: ScanDepositsParameters,
): Promise<ScanDepositsReturnType> {
  const { chain, maxBlockRange, readAhead = true } = parameters
  const { store } = context
  const stored = store.cursors.get(chain.chainId)
  const relayers = [...context.chains.values()].map((c) => c.relayer.account.address)
  const { head, blocks } =
    (await readKnown(context, chain, stored, parameters.knownHead)) ??
    // The head, and the blocks after the cursor with it when they are there (one round trip).
    // (None while no account is watched: scanBlocks reads nothing then either; none when not asked.)
    (await readHead({
      client: chain.publicClient,
      next:
        !readAhead || stored === undefined || store.config.accounts().length === 0 ? undefined : stored + 1n,
    }))
  if (stored === undefined) {
    store.cursors.set(chain.chainId, head)
    store.save()
    return { newBlocks: false }
  }
  // A cursor ahead of the head: the chain went back under the watcher (`POST /_devnet/revert`, an
  // integrator's evm_revert), and blocks it mines now reuse numbers already scanned. Scan again
  // from a little before the head (blocks mined between the revert and this pass included): a
  // deposit seen twice is received once (deterministic ids).
  const start = stored > head ? (head > REWIND_BLOCKS ? head - REWIND_BLOCKS : 0n) : stored
  if (start !== stored) {
    store.cursors.set(chain.chainId, start)
    store.save()
  }
  let cursor = start
  // Blocks cursor + 1, … read with the head: as one range of scanBlocks, their deposits received,
  // then the cursor moved past them, in one save.
  if (start === stored && blocks.length > 0) {
    for (const whole of blocks) {
      const observed = depositsInBlock(whole, {
        chainId: chain.chainId,
        accounts: store.config.accounts(),
        ignoreSenders: relayers,
      })
      for (const deposit of observed) receiveDeposit(context, deposit)
    }
    cursor = blocks[blocks.length - 1]!.block.number
    store.cursors.set(chain.chainId, cursor)
    store.save()
  }
  while (cursor < head) {
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
  return { newBlocks: head > stored }
}

/**
 * What a pass woken by a block learns without asking for the head: with no account watched,
 * nothing to read (a scan would find nothing: the cursor moves to the head); else the few blocks
 * up to the notified head, each whole, when the node has them all. Undefined: read the head.
 */
async function readKnown(
  context: DepositContext,
  chain: DepositChain,
  stored: bigint | undefined,
  knownHead: bigint | undefined,
): Promise<ReadHeadReturnType | undefined> {
  if (
    knownHead === undefined ||
    stored === undefined ||
    knownHead < stored ||
    knownHead - stored > BigInt(READ_AHEAD)
  )
    return undefined
  if (context.store.config.accounts().length === 0 || knownHead === stored)
    return { head: knownHead, blocks: [] }
  const blocks = await readWholeBlocks(chain.publicClient, stored + 1n, knownHead)
  return blocks.length === Number(knownHead - stored) ? { head: knownHead, blocks } : undefined
}
