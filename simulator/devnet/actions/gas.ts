import type { PublicClient } from 'viem'
import type { DevnetChain } from '../chain'
import type { ChainGas } from '../stateDir'

/**
 * A chain's gas now: its head block and the base fee of its next block (what a quote prices gas
 * with, and what Anvil's `anvil_dumpState` does not carry across the block a boot mines).
 *
 * @example
 * const gas = await readChainGas(devnet.chain(10).publicClient) // { blockNumber: '7', nextBaseFeePerGas: '409619905' }
 */
export async function readChainGas(
  client: Pick<PublicClient, 'getBlockNumber' | 'getFeeHistory'>,
): Promise<ChainGas> {
  const [head, history] = await Promise.all([
    client.getBlockNumber({ cacheTime: 0 }),
    client.getFeeHistory({ blockCount: 1, blockTag: 'latest', rewardPercentiles: [] }),
  ])
  // The history's last base fee is the next block's.
  return { blockNumber: String(head), nextBaseFeePerGas: String(history.baseFeePerGas.at(-1) ?? 0n) }
}

/**
 * Every chain's gas, by chain id.
 *
 * @example
 * const gas = await readGas(devnet.chains)
 */
export async function readGas(chains: readonly DevnetChain[]): Promise<Record<string, ChainGas>> {
  const read = await Promise.all(
    chains.map(async (chain) => [chain.chainId, await readChainGas(chain.publicClient)] as const),
  )
  return Object.fromEntries(read.map(([chainId, gas]) => [String(chainId), gas]))
}

/**
 * Gives a chain's next block the base fee it had when its gas was read, so quotes price gas as
 * they did then and later blocks follow the same fees (EIP-1559 derives each from the last).
 *
 * @example
 * await restoreChainGas(chain, { blockNumber: '7', nextBaseFeePerGas: '409619905' })
 */
export async function restoreChainGas(chain: DevnetChain, gas: ChainGas): Promise<void> {
  await chain.testClient.setNextBlockBaseFeePerGas({ baseFeePerGas: BigInt(gas.nextBaseFeePerGas) })
}
