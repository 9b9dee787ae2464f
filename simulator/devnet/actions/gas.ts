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
  client: Pick<PublicClient, 'getBlock' | 'getFeeHistory'>,
): Promise<ChainGas> {
  const [head, history] = await Promise.all([
    client.getBlock({ blockTag: 'latest' }),
    client.getFeeHistory({ blockCount: 1, blockTag: 'latest', rewardPercentiles: [] }),
  ])
  return {
    blockNumber: String(head.number),
    baseFeePerGas: String(head.baseFeePerGas ?? 0n),
    // The history's last base fee is the next block's.
    nextBaseFeePerGas: String(history.baseFeePerGas.at(-1) ?? 0n),
  }
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
 * Mines one block (the one that aligns the clocks) with the base fee the chain's head had when
 * its gas was read, then gives the next block the base fee it was to have: reads at the head
 * (`block.basefee`, what quotes price gas with) and the blocks to come see the fees they saw
 * then (EIP-1559 derives each from the last). `mine` mines that block (stamped by the caller).
 *
 * @example
 * await restoreChainGas(chain, gas, () => chain.testClient.mine({ blocks: 1 }))
 */
export async function restoreChainGas(
  chain: DevnetChain,
  gas: ChainGas,
  mine: () => Promise<unknown>,
): Promise<void> {
  if (gas.baseFeePerGas !== undefined)
    await chain.testClient.setNextBlockBaseFeePerGas({ baseFeePerGas: BigInt(gas.baseFeePerGas) })
  await mine()
  await chain.testClient.setNextBlockBaseFeePerGas({ baseFeePerGas: BigInt(gas.nextBaseFeePerGas) })
}
