import { type Address, type Hash, type PublicClient, parseAbiItem, zeroAddress } from 'viem'

/** The ERC-20 Transfer event, as every token emits it. */
export const transferEvent = parseAbiItem(
  'event Transfer(address indexed from, address indexed to, uint256 value)',
)

/** A transfer to a watched account, seen on chain. */
export type ObservedDeposit = {
  /** `chainId:txHash:logIndex` for an ERC-20 transfer, `chainId:txHash:native` for ether. */
  id: string
  chainId: number
  blockNumber: bigint
  /** Position in the block, for ordering: log index, or transaction index for ether. */
  position: number
  transactionHash: Hash
  logIndex: number | null
  /** The token contract, or the zero address for ether. */
  token: Address
  account: Address
  sender: Address
  amount: bigint
}

/** Parameters of {@link scanBlocks}. */
export type ScanBlocksParameters = {
  client: PublicClient
  chainId: number
  fromBlock: bigint
  toBlock: bigint
  /** The registered accounts. */
  accounts: readonly Address[]
  /** Senders whose transfers are not deposits (the relayer's own payouts). */
  ignoreSenders: readonly Address[]
}

/**
 * Finds every deposit to `accounts` in blocks `fromBlock..toBlock` (inclusive): ERC-20
 * `Transfer` logs of any contract (one `eth_getLogs` filtered on the indexed `to`), and ether
 * sent by a successful top-level transaction (each block's transactions). Ether moved by a
 * contract's internal call has no log and is not seen.
 *
 * @returns the deposits ordered by block, then position.
 */
export async function scanBlocks(parameters: ScanBlocksParameters): Promise<ObservedDeposit[]> {
  const { client, chainId, fromBlock, toBlock, accounts } = parameters
  if (accounts.length === 0 || fromBlock > toBlock) return []
  const watched = new Set(accounts.map((a) => a.toLowerCase()))
  const ignored = new Set(parameters.ignoreSenders.map((a) => a.toLowerCase()))
  const deposits: ObservedDeposit[] = []

  // The logs and every block of the range at once: concurrent reads go to the node as one
  // JSON-RPC batch (the devnet's transport), not one round trip per block.
  const [logs, blocks] = await Promise.all([
    client.getLogs({ event: transferEvent, args: { to: [...accounts] }, fromBlock, toBlock }),
    readBlocks(client, fromBlock, toBlock),
  ])
  for (const log of logs) {
    const { from, to, value } = log.args
    if (!from || !to || value === undefined || value === 0n || log.removed) continue
    if (!watched.has(to.toLowerCase()) || ignored.has(from.toLowerCase())) continue
    deposits.push({
      id: `${chainId}:${log.transactionHash}:${log.logIndex}`,
      chainId,
      blockNumber: log.blockNumber,
      position: log.logIndex,
      transactionHash: log.transactionHash,
      logIndex: log.logIndex,
      token: log.address,
      account: to,
      sender: from,
      amount: value,
    })
  }

  const sends = blocks.flatMap((block) =>
    block.transactions.filter(
      (tx) =>
        tx.to && tx.value !== 0n && watched.has(tx.to.toLowerCase()) && !ignored.has(tx.from.toLowerCase()),
    ),
  )
  const receipts = await Promise.all(sends.map((tx) => client.getTransactionReceipt({ hash: tx.hash })))
  sends.forEach((tx, i) => {
    if (receipts[i]!.status !== 'success') return
    deposits.push({
      id: `${chainId}:${tx.hash}:native`,
      chainId,
      blockNumber: tx.blockNumber!,
      position: tx.transactionIndex ?? 0,
      transactionHash: tx.hash,
      logIndex: null,
      token: zeroAddress,
      account: tx.to!,
      sender: tx.from,
      amount: tx.value,
    })
  })
  return deposits.sort((a, b) =>
    a.blockNumber === b.blockNumber ? a.position - b.position : a.blockNumber < b.blockNumber ? -1 : 1,
  )
}

/** Blocks read in one JSON-RPC batch, at most. */
const BLOCKS_PER_BATCH = 50

/** Blocks `fromBlock..toBlock` with their transactions, in order, read {@link BLOCKS_PER_BATCH} at a time. */
async function readBlocks(client: PublicClient, fromBlock: bigint, toBlock: bigint) {
  const blocks = []
  for (let first = fromBlock; first <= toBlock; first += BigInt(BLOCKS_PER_BATCH)) {
    const last =
      first + BigInt(BLOCKS_PER_BATCH) - 1n < toBlock ? first + BigInt(BLOCKS_PER_BATCH) - 1n : toBlock
    const numbers = Array.from({ length: Number(last - first) + 1 }, (_, i) => first + BigInt(i))
    blocks.push(
      ...(await Promise.all(
        numbers.map((blockNumber) => client.getBlock({ blockNumber, includeTransactions: true })),
      )),
    )
  }
  return blocks
}
