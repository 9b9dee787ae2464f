import { getAbiItem, type Hash, type Hex, type RpcLog, toEventSelector } from 'viem'
import { addresses } from '../../contracts/addresses'
import { IntentArbiter, IntentFiller } from '../../contracts/generated/artifacts'
import { minedAt } from './minedAt'
import { retryTransient } from './retryTransient'
import type { SettlementContext } from './types'

/**
 * The events that record a step of a fill id on chain: the filler's `Filled`, an arbiter's
 * `Claimed`, each with its topic (`fillId` is the first indexed argument of both, a bytes32: its
 * own topic). Computed once: viem's `getLogs({ event, args })` formats the event's signature and
 * hashes it on every call (~15 ms of the simulator's CPU per conformance run), and decodes logs
 * only the hash and block of are read here.
 */
const events = {
  Filled: {
    what: 'find fill',
    address: addresses.filler,
    topic: toEventSelector(getAbiItem({ abi: IntentFiller.abi, name: 'Filled' })),
  },
  Claimed: {
    what: 'find claim',
    address: addresses.arbiter,
    topic: toEventSelector(getAbiItem({ abi: IntentArbiter.abi, name: 'Claimed' })),
  },
} as const

/** Parameters of {@link findMined}. */
export type FindMinedParameters = {
  chainId: number
  /** `Filled` (the fill, on the destination) or `Claimed` (a claim, on an origin). */
  event: keyof typeof events
  fillId: Hex
  /** The transaction the relayer recorded sending before a restart, if any: its receipt is asked first. */
  txHash?: Hash | undefined
}

/** A step found mined: its transaction and block timestamp. */
export type FindMinedReturnType = { txHash: Hash; timestamp: number } | undefined

/**
 * Finds a fill or claim already mined (for resuming after a restart): the recorded transaction
 * when its receipt says it succeeded, else the event the contract emitted for the fill id.
 *
 * @example
 * const mined = await findMined(context, { chainId: 8453, event: 'Filled', fillId })
 */
export async function findMined(
  context: Pick<SettlementContext, 'devnet' | 'log'>,
  { chainId, event, fillId, txHash }: FindMinedParameters,
): Promise<FindMinedReturnType> {
  const { publicClient } = context.devnet.chain(chainId)
  if (txHash) {
    const receipt = await publicClient.getTransactionReceipt({ hash: txHash }).catch(() => undefined)
    if (receipt?.status === 'success') return { txHash, timestamp: await minedAt(publicClient, receipt) }
  }
  const { what, address, topic } = events[event]
  return retryTransient(context, { what }, async () => {
    // What getLogs({ address, event, args: { fillId }, fromBlock: 0n }) asks the node.
    const [log] = (await publicClient.request({
      method: 'eth_getLogs',
      params: [{ address, topics: [topic, fillId], fromBlock: '0x0' }],
    })) as RpcLog[]
    if (!log?.transactionHash || !log.blockNumber) return undefined
    return {
      txHash: log.transactionHash,
      timestamp: await minedAt(publicClient, {
        blockNumber: BigInt(log.blockNumber),
        blockTimestamp: (log as { blockTimestamp?: unknown }).blockTimestamp,
      }),
    }
  })
}
