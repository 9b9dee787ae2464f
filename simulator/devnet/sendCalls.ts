import type { Address, Hash, Hex } from 'viem'
import { BaseError } from '../util/BaseError'
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
}

export class BootCallError extends BaseError {
  override name = 'Devnet.BootCallError'
}

/**
 * Sends `calls` from `from` (impersonated) on one chain as fast as Anvil allows: automine off,
 * every transaction sent with an explicit nonce and gas in one JSON-RPC batch, the pool mined
 * in as few blocks as the block gas limit allows, automine back on; then every receipt is
 * checked. Order is kept (nonces).
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
  const [nonce, block] = await Promise.all([
    publicClient.getTransactionCount({ address: from, blockTag: 'pending' }),
    publicClient.getBlock({ blockTag: 'latest' }),
    testClient.impersonateAccount({ address: from }),
    testClient.setAutomine(false),
  ])
  let hashes: Hash[]
  try {
    hashes = await Promise.all(
      calls.map((call, i) =>
        relayerClient.sendTransaction({
          account: from,
          chain: null,
          to: call.to,
          data: call.data,
          value: call.value ?? 0n,
          gas: call.gas ?? 300_000n,
          nonce: nonce + i,
        }),
      ),
    )
    const gas = calls.reduce((sum, call) => sum + (call.gas ?? 300_000n), 0n)
    // Mined blocks share the wall-clock second (Anvil allows equal timestamps), so boot does not
    // push chain time ahead of the service clock.
    const blocks = Number(gas / block.gasLimit) + 1
    await testClient.mine({ blocks })
  } finally {
    await Promise.all([testClient.setAutomine(true), testClient.stopImpersonatingAccount({ address: from })])
  }
  const receipts = await Promise.all(hashes.map((hash) => publicClient.getTransactionReceipt({ hash })))
  const failed = receipts.findIndex((receipt) => receipt.status !== 'success')
  if (failed >= 0)
    throw new BootCallError(`Boot call "${calls[failed]?.label}" reverted on chain ${chain.chainId}.`, {
      details: `transaction ${receipts[failed]?.transactionHash}, gas used ${receipts[failed]?.gasUsed}`,
    })
}
