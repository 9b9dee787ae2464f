import type { Address, Hash, Hex } from 'viem'
import { BaseError } from '../../spec/BaseError'
import type { DevnetChain } from './chain'

/** One transaction of a boot step: placement's `initialize` calls, funding's mints and deposits. */
export type DevnetCall = {
  /** What it does, for errors: `initialize USDC`, `mint WETH to test-3`. */
  label: string
  to: Address
  data?: Hex | undefined
  value?: bigint | undefined
  /** Gas limit; no estimation is made (the pool is not mined yet). Default 300k. */
  gas?: bigint | undefined
  /** Who sends it (impersonated); default the `from` given to {@link sendCalls}. */
  from?: Address | undefined
}

export class BootCallError extends BaseError {
  override name = 'Devnet.BootCallError'
}

/**
 * Sends `calls` from `from` (or each call's own `from`; every sender impersonated) on one chain
 * as fast as Anvil allows: automine off, every transaction sent with an explicit nonce and gas in
 * one JSON-RPC batch, the pool mined in as few blocks as the block gas limit allows, automine
 * back on; then every receipt is checked. Order is kept per sender (nonces).
 *
 * @throws {BootCallError} naming the first call that reverted.
 */
export async function sendCalls(
  chain: DevnetChain,
  from: Address,
  calls: readonly DevnetCall[],
): Promise<void> {
  if (calls.length === 0) return
  const { publicClient, testClient, relayerClient } = chain
  const senders = [...new Set(calls.map((call) => call.from ?? from))]
  const [block, nonces] = await Promise.all([
    publicClient.getBlock({ blockTag: 'latest' }),
    Promise.all(
      senders.map((sender) => publicClient.getTransactionCount({ address: sender, blockTag: 'pending' })),
    ),
    Promise.all(senders.map((sender) => testClient.impersonateAccount({ address: sender }))),
    testClient.setAutomine(false),
  ])
  const next = new Map(senders.map((sender, i) => [sender, nonces[i]!]))
  let hashes: Hash[]
  try {
    hashes = await Promise.all(
      calls.map((call) => {
        const sender = call.from ?? from
        const nonce = next.get(sender)!
        next.set(sender, nonce + 1)
        return relayerClient.sendTransaction({
          account: sender,
          chain: null,
          to: call.to,
          data: call.data,
          value: call.value ?? 0n,
          gas: call.gas ?? 300_000n,
          nonce,
        })
      }),
    )
    const gas = calls.reduce((sum, call) => sum + (call.gas ?? 300_000n), 0n)
    // Mined blocks share the wall-clock second (Anvil allows equal timestamps), so boot does not
    // push chain time ahead of the service clock.
    const blocks = Number(gas / block.gasLimit) + 1
    await testClient.mine({ blocks })
  } finally {
    await Promise.all([
      testClient.setAutomine(true),
      ...senders.map((sender) => testClient.stopImpersonatingAccount({ address: sender })),
    ])
  }
  const receipts = await Promise.all(hashes.map((hash) => publicClient.getTransactionReceipt({ hash })))
  const failed = receipts.findIndex((receipt) => receipt.status !== 'success')
  if (failed >= 0)
    throw new BootCallError(`Boot call "${calls[failed]?.label}" reverted on chain ${chain.chainId}.`, {
      details: `transaction ${receipts[failed]?.transactionHash}, gas used ${receipts[failed]?.gasUsed}`,
    })
}
