import type { Address, Hash, Hex, SignedAuthorizationList, TransactionReceipt } from 'viem'
import type { DevnetChain } from '../devnet/chain'

/** One transaction the relayer sends. */
export type RelayerTransaction = {
  to: Address
  data: Hex
  value?: bigint | undefined
  /** EIP-7702 authorizations to carry (a type-4 transaction). */
  authorizationList?: SignedAuthorizationList | undefined
}

/** The relayer's sender on one chain: one queue, so nonces never collide or leave gaps. */
export type ChainSender = {
  readonly chainId: number
  /**
   * Estimates gas (a revert throws here, before anything is sent), then sends with the next
   * nonce. Resolves with the hash once the node accepted the transaction.
   */
  send(tx: RelayerTransaction): Promise<Hash>
  /** Polls until the receipt exists (Anvil's automine mines on send, so this is quick). */
  waitForReceipt(hash: Hash): Promise<TransactionReceipt>
}

/** Parameters of {@link createChainSender}. */
export type CreateChainSenderParameters = {
  chain: DevnetChain
  /** Receipt poll interval in ms (default 20). */
  pollMs?: number | undefined
  /** Give up waiting for a receipt after this many ms (default 60 000). */
  receiptTimeoutMs?: number | undefined
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

/**
 * Creates the relayer's sender for one chain. Gas and fees are prepared outside the queue (in
 * parallel for concurrent intents); only nonce assignment and `eth_sendRawTransaction` run one
 * at a time. A send the node refuses resyncs the nonce from the chain before the next one.
 */
export function createChainSender({
  chain,
  pollMs = 20,
  receiptTimeoutMs = 60_000,
}: CreateChainSenderParameters): ChainSender {
  const { relayerClient, publicClient } = chain
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
    async send(tx) {
      const gas = await publicClient.estimateGas({
        account,
        to: tx.to,
        data: tx.data,
        value: tx.value ?? 0n,
        ...(tx.authorizationList ? { authorizationList: tx.authorizationList } : {}),
      })
      const fees = await publicClient.estimateFeesPerGas()
      return enqueue(async () => {
        // Someone else used the relayer's key (a tool, a second process): resync once and retry.
        for (let attempt = 1; ; attempt++) {
          nextNonce ??= await publicClient.getTransactionCount({
            address: account.address,
            blockTag: 'pending',
          })
          const nonce = nextNonce
          try {
            const hash = await relayerClient.sendTransaction({
              to: tx.to,
              data: tx.data,
              value: tx.value ?? 0n,
              // Headroom: state may change between estimate and send (other intents' txs).
              gas: (gas * 13n) / 10n + 20_000n,
              maxFeePerGas: fees.maxFeePerGas * 2n,
              maxPriorityFeePerGas: fees.maxPriorityFeePerGas,
              nonce,
              ...(tx.authorizationList ? { authorizationList: tx.authorizationList } : {}),
            })
            nextNonce = nonce + 1
            return hash
          } catch (error) {
            nextNonce = undefined
            if (attempt >= 2 || !/nonce/i.test((error as Error).message)) throw error
          }
        }
      })
    },
    async waitForReceipt(hash) {
      const deadline = Date.now() + receiptTimeoutMs
      for (;;) {
        const receipt = await publicClient.getTransactionReceipt({ hash }).catch(() => undefined)
        if (receipt) return receipt
        if (Date.now() > deadline) return publicClient.getTransactionReceipt({ hash })
        await sleep(pollMs)
      }
    },
  }
}
