import {
  type Address,
  formatLog,
  formatTransaction,
  type Hash,
  numberToHex,
  type PublicClient,
  parseAbiItem,
  parseEventLogs,
  type RpcTransaction,
  type RpcTransactionReceipt,
  type Transaction,
  toEventSelector,
  zeroAddress,
} from 'viem'

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
  const { client, fromBlock, toBlock, accounts } = parameters
  if (accounts.length === 0 || fromBlock > toBlock) return []
  const watch = watchOf(parameters)
  // The logs and every block of the range at once: concurrent reads go to the node as one
  // JSON-RPC batch (the devnet's transport), not one round trip per block.
  const [logs, blocks] = await Promise.all([
    client.getLogs({ event: transferEvent, args: { to: [...accounts] }, fromBlock, toBlock }),
    readBlocks(client, fromBlock, toBlock),
  ])
  const sends = blocks.flatMap((block) => block.transactions.filter(watch.isNativeDeposit))
  const receipts = await Promise.all(sends.map((tx) => client.getTransactionReceipt({ hash: tx.hash })))
  return toDeposits(
    watch,
    logs,
    sends.filter((_, i) => receipts[i]!.status === 'success'),
  )
}

/** Parameters of {@link readHead}. */
export type ReadHeadParameters = {
  client: PublicClient
  /** The block after the watcher's cursor: read side by side with the head (absent: only the head). */
  next?: bigint | undefined
}

/**
 * A block whole: its number, hash and transactions as the node sent them (formatted by viem only
 * for the ones {@link depositsInBlock} may count), and its receipts (one per transaction, same
 * block hash).
 */
export type WholeBlock = {
  block:
    | { number: bigint; hash: Hash; formatted: false; transactions: readonly RpcTransaction[] }
    | { number: bigint; hash: Hash; formatted: true; transactions: readonly Transaction[] }
  receipts: readonly RpcTransactionReceipt[]
}

/** What {@link readHead} learnt: the head, and blocks `next`, `next + 1`, … that it could read whole. */
export type ReadHeadReturnType = { head: bigint; blocks: WholeBlock[] }

/** Blocks after the cursor that {@link readHead} reads with the head (a pass often finds a few). */
export const READ_AHEAD = 3

/**
 * The chain's head and, in the same round trip (the transport batches the requests), the
 * {@link READ_AHEAD} blocks from `next` on, each whole with its receipts (`eth_getBlockReceipts`):
 * a pass that finds up to that many new blocks, the usual case, learns their deposits
 * ({@link depositsInBlock}) without a second round trip. Reading blocks not mined yet costs the
 * node a lookup that finds nothing. The node answers a batch's requests concurrently, so a block
 * counts only when it is there and whole (its receipts are the block's: same hash, one per
 * transaction) and the head includes it, and only in an unbroken run from `next`; the caller
 * scans the rest up to the head with {@link scanBlocks} (the fallback, also for a node without
 * `eth_getBlockReceipts`).
 */
export async function readHead({ client, next }: ReadHeadParameters): Promise<ReadHeadReturnType> {
  if (next === undefined) return { head: await client.getBlockNumber({ cacheTime: 0 }), blocks: [] }
  const [head, read] = await Promise.all([
    client.getBlockNumber({ cacheTime: 0 }),
    readWhole(client, next, next + BigInt(READ_AHEAD) - 1n),
  ])
  return { head, blocks: wholeRun(read, head) }
}

/**
 * Blocks `from..to` each whole with its receipts, in one round trip, for blocks known to be mined
 * (a `newHeads` notification named `to`): the unbroken run from `from` that the node answered
 * whole ({@link readHead}'s checks). Fewer than asked when the chain changed meanwhile (a revert):
 * the caller then reads the head as usual.
 */
export async function readWholeBlocks(client: PublicClient, from: bigint, to: bigint): Promise<WholeBlock[]> {
  return wholeRun(await readWhole(client, from, to), to)
}

/** Blocks `from..to`, each with its receipts, side by side (one JSON-RPC batch); undefined parts where the node had none. */
function readWhole(client: PublicClient, from: bigint, to: bigint) {
  const numbers = Array.from({ length: Math.max(0, Number(to - from) + 1) }, (_, i) => from + BigInt(i))
  return Promise.all(
    numbers.map((blockNumber) =>
      Promise.all([
        blockNumber,
        readBlock(client, blockNumber).catch(() => undefined),
        client
          .request({ method: 'eth_getBlockReceipts', params: [numberToHex(blockNumber)] })
          .catch(() => undefined) as Promise<RpcTransactionReceipt[] | null | undefined>,
      ] as const),
    ),
  )
}

/**
 * Block `blockNumber` with its transactions as the node sent them: viem's getBlock formats every
 * transaction (~0.1 ms each in the simulator child of a conformance run, ~10 ms per all-packs
 * run), where depositsInBlock formats only the few that may be deposits, as getBlock would have
 * (viem's formatTransaction). A chain with a block formatter of its own (viem's chain
 * definitions of some L2s; the devnet's have none) reads through getBlock, formatted. Undefined
 * when the node has no such block (getBlock throws then).
 */
async function readBlock(
  client: PublicClient,
  blockNumber: bigint,
): Promise<WholeBlock['block'] | undefined> {
  if (client.chain?.formatters?.block) {
    const block = await client.getBlock({ blockNumber, includeTransactions: true })
    return { number: block.number, hash: block.hash, formatted: true, transactions: block.transactions }
  }
  const block = await client.request({
    method: 'eth_getBlockByNumber',
    params: [numberToHex(blockNumber), true],
  })
  if (!block?.hash) return undefined
  return {
    number: BigInt(block.number ?? blockNumber),
    hash: block.hash,
    formatted: false,
    transactions: block.transactions as readonly RpcTransaction[],
  }
}

/**
 * The node answers a batch's requests concurrently, so a block counts only when it is there and
 * whole (its receipts are the block's: same hash, one per transaction) and `head` includes it,
 * and only in an unbroken run from the first.
 */
function wholeRun(read: Awaited<ReturnType<typeof readWhole>>, head: bigint): WholeBlock[] {
  const blocks: WholeBlock[] = []
  for (const [number, block, receipts] of read) {
    if (
      number > head ||
      !block ||
      !receipts ||
      receipts.length !== block.transactions.length ||
      receipts.some((r) => r.blockHash !== block.hash)
    )
      break
    blocks.push({ block, receipts })
  }
  return blocks
}

/**
 * The deposits {@link scanBlocks} finds in one block, from the block and its receipts: the same
 * Transfer logs (the node's filter of its `getLogs` on `to`, applied to the receipts' logs, then
 * viem's decoding, the decoded `to` checked by toDeposits), and the same ether sends (the
 * block's transactions, their receipts' status). Call it with the accounts as they are once the
 * block is read (as scanBlocks reads them after the head): an account registered before a block
 * was mined is watched in it.
 */
export function depositsInBlock(
  { block, receipts }: WholeBlock,
  parameters: Omit<ScanBlocksParameters, 'client' | 'fromBlock' | 'toBlock'>,
): ObservedDeposit[] {
  const { accounts } = parameters
  if (accounts.length === 0) return []
  const watch = watchOf(parameters)
  const toTopics = new Set([...watch.watched].map((a) => `0x${a.slice(2).padStart(64, '0')}`))
  const logs = receipts.flatMap((receipt) =>
    receipt.logs.filter(
      (log) =>
        log.topics[0]?.toLowerCase() === TRANSFER_TOPIC && toTopics.has(log.topics[2]?.toLowerCase() ?? ''),
    ),
  )
  // viem's decoding. No `args: { to: accounts }` filter as getLogs has: the logs kept above are
  // to a watched account already, and toDeposits checks the decoded `to` again (viem's filter
  // compared every log with every account through isAddressEqual, ~4 ms of a conformance run).
  const decoded = parseEventLogs({
    abi: [transferEvent],
    logs: logs.map((log) => formatLog(log)),
    strict: false,
  })
  const succeeded = new Set(receipts.filter((r) => r.status === '0x1').map((r) => r.transactionHash))
  // The transactions that succeeded, to a watched account from a sender not ignored, formatted
  // by viem as getBlock formats them; isNativeDeposit then decides on them as scanBlocks does.
  const candidates = (block.transactions as readonly (RpcTransaction | Transaction)[]).filter(
    (tx) =>
      succeeded.has(tx.hash) &&
      tx.to != null &&
      watch.watched.has(tx.to.toLowerCase()) &&
      !watch.ignored.has(tx.from.toLowerCase()),
  )
  const sends = (
    block.formatted
      ? (candidates as Transaction[])
      : (candidates as RpcTransaction[]).map((tx) => formatTransaction(tx))
  ).filter(watch.isNativeDeposit)
  return toDeposits(watch, decoded, sends)
}

/** The topic of {@link transferEvent}: keccak256("Transfer(address,address,uint256)"). */
const TRANSFER_TOPIC = toEventSelector(transferEvent)

/** Who is watched and who is ignored, lower-cased, and which transactions send them ether. */
function watchOf(parameters: Pick<ScanBlocksParameters, 'chainId' | 'accounts' | 'ignoreSenders'>) {
  const watched = new Set(parameters.accounts.map((a) => a.toLowerCase()))
  const ignored = new Set(parameters.ignoreSenders.map((a) => a.toLowerCase()))
  return {
    chainId: parameters.chainId,
    watched,
    ignored,
    /** A top-level transaction with value to a watched account, not from an ignored sender. */
    isNativeDeposit: (tx: Transaction) =>
      tx.to !== null &&
      tx.value !== 0n &&
      watched.has(tx.to.toLowerCase()) &&
      !ignored.has(tx.from.toLowerCase()),
  }
}

/** A decoded Transfer log, as `getLogs` with {@link transferEvent} (not strict) hands it. */
type TransferLog = {
  args: { from?: Address | undefined; to?: Address | undefined; value?: bigint | undefined }
  removed: boolean
  transactionHash: Hash | null
  logIndex: number | null
  blockNumber: bigint | null
  address: Address
}

/** The deposits in decoded Transfer logs and successful ether sends, ordered by block, then position. */
function toDeposits(
  watch: ReturnType<typeof watchOf>,
  logs: readonly TransferLog[],
  sends: readonly Transaction[],
): ObservedDeposit[] {
  const { chainId, watched, ignored } = watch
  const deposits: ObservedDeposit[] = []
  for (const log of logs) {
    const { from, to, value } = log.args
    if (!from || !to || value === undefined || value === 0n || log.removed) continue
    if (!watched.has(to.toLowerCase()) || ignored.has(from.toLowerCase())) continue
    deposits.push({
      id: `${chainId}:${log.transactionHash}:${log.logIndex}`,
      chainId,
      blockNumber: log.blockNumber!,
      position: log.logIndex!,
      transactionHash: log.transactionHash!,
      logIndex: log.logIndex!,
      token: log.address,
      account: to,
      sender: from,
      amount: value,
    })
  }
  for (const tx of sends)
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
