import {
  type Address,
  BlockNotFoundError,
  type Chain,
  createPublicClient,
  custom,
  type Hash,
  type Hex,
  type LocalAccount,
  type PublicClient,
  type SignedAuthorizationList,
  type TransactionReceipt,
  type Transport,
  type WalletClient,
  withRetry,
} from 'viem'
import { keccak256Hex } from '../../lib/keccak'
import { syncSendTransport } from '../../lib/syncSendTransport'

/** One transaction the relayer sends. */
export type RelayerTransaction = {
  to: Address
  data: Hex
  value?: bigint | undefined
  /** EIP-7702 authorizations to carry (a type-4 transaction). */
  authorizationList?: SignedAuthorizationList | undefined
}

/** A transaction signed by the relayer and not yet broadcast. */
export type SignedRelayerTransaction = { hash: Hash; serialized: Hex }

/** Options of {@link ChainSender.send}. */
export type SendOptions = {
  /**
   * Called with the signed transaction after its nonce is taken and before it is broadcast. A
   * caller that must never pay twice records it here (a crash after this point leaves a record
   * of the one transaction that may be on chain, which a restart can find or broadcast again,
   * instead of sending a second one). A throw aborts the send: nothing is broadcast. Called again
   * with the new transaction if the node refuses the first for its nonce and it is re-signed.
   */
  beforeBroadcast?: ((signed: SignedRelayerTransaction) => void | Promise<void>) | undefined
}

/** The relayer's sender on one chain: one queue, so nonces never collide or leave gaps. */
export type ChainSender = {
  readonly chainId: number
  /**
   * Estimates gas (a revert throws here, before anything is sent), takes the next nonce, signs
   * with the relayer's key and broadcasts. Resolves with the hash once the node accepted the
   * transaction.
   */
  send(tx: RelayerTransaction, options?: SendOptions): Promise<Hash>
  /** Waits until the transaction is mined (viem's `waitForTransactionReceipt`; Anvil's automine mines on send, so this is quick). */
  waitForReceipt(hash: Hash): Promise<TransactionReceipt>
}

/** What a sender needs of a chain (a DevnetChain fits): reads, and the relayer's wallet with a local key. */
export type SenderChain = {
  chainId: number
  publicClient: PublicClient<Transport, Chain | undefined>
  relayerClient: WalletClient<Transport, Chain | undefined, LocalAccount>
}

/** Parameters of {@link createChainSender}. */
export type CreateChainSenderParameters = {
  chain: SenderChain
  /** Receipt poll interval in ms (default 20). */
  pollMs?: number | undefined
  /** Give up waiting for a receipt after this many ms (default 60 000). */
  receiptTimeoutMs?: number | undefined
  /**
   * The chain mines each transaction as it arrives (Anvil without `--block-time`): a send is one
   * round trip that comes back with its receipt (`eth_sendRawTransactionSync`, through
   * lib/syncSendTransport.ts, with its fallbacks for a node that does not serve it), and
   * {@link ChainSender.waitForReceipt} answers from it, instead of `eth_sendRawTransaction` then
   * `eth_getTransactionReceipt` (and `eth_blockNumber` while not mined): 1 round trip instead of
   * 2-4 per transaction. Without automining the sync call would hold the send queue until the
   * next block (the fallback answers after 150 ms), so it is off by default.
   */
  automine?: boolean | undefined
}

/**
 * Creates the relayer's sender for one chain. Gas and fees are prepared outside the queue (in
 * parallel for concurrent intents); only nonce assignment and `eth_sendRawTransaction` run one
 * at a time. A send the node refuses resyncs the nonce from the chain before the next one.
 */
export function createChainSender({
  chain,
  pollMs = 20,
  receiptTimeoutMs = 60_000,
  automine = false,
}: CreateChainSenderParameters): ChainSender {
  const { relayerClient, publicClient } = chain
  // The broadcast and the receipt go through the sync transport over the chain's own client
  // (its transport, batching and errors); every other call goes to the client as before.
  const sendClient = automine
    ? createPublicClient({
        chain: publicClient.chain,
        transport: syncSendTransport(custom(publicClient, { retryCount: 0 })),
      })
    : publicClient
  const account = relayerClient.account
  let nextNonce: number | undefined
  let queue: Promise<unknown> = Promise.resolve()

  function enqueue<T>(task: () => Promise<T>): Promise<T> {
    const run = queue.then(task, task)
    queue = run.catch(() => undefined)
    return run
  }

  return {
    chainId: chain.chainId,
    async send(tx, options) {
      // Side by side: the transport batches them into one round trip to the node. `prepare: false`:
      // a plain `eth_estimateGas` (viem otherwise prepares the request first, with an
      // `eth_fillTransaction` whose gas it returns: the same estimate on Anvil, but its awaits put
      // it in a round trip of its own, after the fees'; chainSender.test.ts pins one round trip).
      // The nonce and fees are the sender's own below, so nothing prepared would be used.
      const [gas, fees] = await Promise.all([
        publicClient.estimateGas({
          account,
          to: tx.to,
          data: tx.data,
          value: tx.value ?? 0n,
          ...(tx.authorizationList ? { authorizationList: tx.authorizationList } : {}),
          prepare: false,
        }),
        estimateFees(publicClient),
      ])
      return enqueue(() =>
        // Someone else used the relayer's key (a tool, a second process): resync once and retry.
        withRetry(
          async () => {
            nextNonce ??= await publicClient.getTransactionCount({
              address: account.address,
              blockTag: 'pending',
            })
            const nonce = nextNonce
            try {
              // Signed here, then broadcast: what viem's sendTransaction does for a local key, with
              // a moment in between for the caller to record the transaction (options.beforeBroadcast).
              const common = {
                chainId: chain.chainId,
                to: tx.to,
                data: tx.data,
                value: tx.value ?? 0n,
                // Headroom: state may change between estimate and send (other intents' txs).
                gas: (gas * 13n) / 10n + 20_000n,
                maxFeePerGas: fees.maxFeePerGas * 2n,
                maxPriorityFeePerGas: fees.maxPriorityFeePerGas,
                nonce,
              }
              const serialized = await account.signTransaction(
                tx.authorizationList
                  ? { ...common, type: 'eip7702', authorizationList: tx.authorizationList }
                  : { ...common, type: 'eip1559' },
              )
              // WebAssembly keccak: a relayer transaction is ~2 KB, ~0.5 ms in viem's JS keccak.
              const hash = keccak256Hex(serialized)
              await options?.beforeBroadcast?.({ hash, serialized })
              await sendClient.sendRawTransaction({ serializedTransaction: serialized })
              nextNonce = nonce + 1
              return hash
            } catch (error) {
              nextNonce = undefined
              throw error
            }
          },
          { retryCount: 1, delay: 0, shouldRetry: ({ error }) => /nonce/i.test(error.message) },
        ),
      )
    },
    waitForReceipt: (hash) =>
      sendClient.waitForTransactionReceipt({ hash, pollingInterval: pollMs, timeout: receiptTimeoutMs }),
  }
}

/** viem's default `baseFeeMultiplier` (1.2), as the integer ratio its estimateFeesPerGas uses. */
const BASE_FEE_MULTIPLIER = { numerator: 12n, denominator: 10n }

/**
 * EIP-1559 fees as viem's `estimateFeesPerGas` estimates them on a chain without its own fee
 * rules (maxFeePerGas = latest base fee × 1.2 + `eth_maxPriorityFeePerGas`), with the block
 * and the priority fee read side by side (viem reads one after the other: two round trips).
 * A chain with fee rules of its own goes through viem.
 *
 * @example
 * const { maxFeePerGas, maxPriorityFeePerGas } = await estimateFees(publicClient)
 */
export async function estimateFees(
  publicClient: PublicClient<Transport, Chain | undefined>,
): Promise<{ maxFeePerGas: bigint; maxPriorityFeePerGas: bigint }> {
  if (publicClient.chain?.fees) return publicClient.estimateFeesPerGas()
  const [baseFeePerGas, maxPriorityFeePerGas] = await Promise.all([
    latestBaseFee(publicClient),
    publicClient.estimateMaxPriorityFeePerGas(),
  ])
  if (baseFeePerGas === undefined) return publicClient.estimateFeesPerGas()
  const baseFee = (baseFeePerGas * BASE_FEE_MULTIPLIER.numerator) / BASE_FEE_MULTIPLIER.denominator
  return { maxFeePerGas: baseFee + maxPriorityFeePerGas, maxPriorityFeePerGas }
}

/**
 * The latest block's base fee, as viem's getBlock formats it (`BigInt` of the node's hex), read
 * without formatting the rest of the block (its fields and transaction hashes: ~0.1 ms a send in
 * the simulator child of a conformance run); a chain with a block formatter of its own reads
 * through getBlock. Undefined for a block without a base fee.
 */
async function latestBaseFee(
  publicClient: PublicClient<Transport, Chain | undefined>,
): Promise<bigint | undefined> {
  if (publicClient.chain?.formatters?.block) {
    const { baseFeePerGas } = await publicClient.getBlock()
    return typeof baseFeePerGas === 'bigint' ? baseFeePerGas : undefined
  }
  const block = await publicClient.request({ method: 'eth_getBlockByNumber', params: ['latest', false] })
  if (!block) throw new BlockNotFoundError({})
  return block.baseFeePerGas ? BigInt(block.baseFeePerGas) : undefined
}
