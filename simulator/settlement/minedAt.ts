import type { Chain, PublicClient, Transport } from 'viem'

/** A receipt or a log: the block that holds it, and the block's time when the node gives it. */
export type MinedItem = { blockNumber: bigint; blockTimestamp?: unknown }

/**
 * The timestamp (seconds) of the block that mined a receipt or a log. Anvil puts the block's
 * `blockTimestamp` in its receipts and logs: it is taken from there, without a round trip (viem
 * keeps a receipt's as the node wrote it, a number; a log's as a bigint). A node that leaves it
 * out (or gives something that is not a time) costs one block read, as before: the fallback.
 *
 * @example
 * const timestamp = await minedAt(publicClient, receipt)
 */
export async function minedAt(
  publicClient: Pick<PublicClient<Transport, Chain | undefined>, 'getBlock'>,
  item: MinedItem,
): Promise<number> {
  const given = toSeconds(item.blockTimestamp)
  if (given !== undefined) return given
  return Number((await publicClient.getBlock({ blockNumber: item.blockNumber })).timestamp)
}

/** A time as a node may write it (a number, a bigint, a hex or decimal string), or undefined. */
function toSeconds(value: unknown): number | undefined {
  if (typeof value !== 'number' && typeof value !== 'bigint' && typeof value !== 'string') return undefined
  if (typeof value === 'string' && !/^(0x[0-9a-f]+|[0-9]+)$/i.test(value)) return undefined
  const seconds = Number(value)
  return Number.isSafeInteger(seconds) && seconds > 0 ? seconds : undefined
}
