import { getAbiItem, type Hash, type Hex } from 'viem'
import { addresses } from '../../contracts/addresses'
import { IntentArbiter, IntentFiller } from '../../contracts/generated/artifacts'
import { minedAt } from './minedAt'
import { retryTransient } from './retryTransient'
import type { SettlementContext } from './types'

/** The events that record a step of a fill id on chain: the filler's `Filled`, an arbiter's `Claimed`. */
const events = {
  Filled: {
    what: 'find fill',
    address: addresses.filler,
    event: getAbiItem({ abi: IntentFiller.abi, name: 'Filled' }),
  },
  Claimed: {
    what: 'find claim',
    address: addresses.arbiter,
    event: getAbiItem({ abi: IntentArbiter.abi, name: 'Claimed' }),
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
  const { what, address } = events[event]
  return retryTransient(context, { what }, async () => {
    const [log] = await publicClient.getLogs({
      address,
      event: events[event].event,
      args: { fillId },
      fromBlock: 0n,
    })
    if (!log?.transactionHash || log.blockNumber === null) return undefined
    return {
      txHash: log.transactionHash,
      timestamp: await minedAt(publicClient, {
        blockNumber: log.blockNumber,
        blockTimestamp: log.blockTimestamp,
      }),
    }
  })
}
