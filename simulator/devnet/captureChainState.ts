import { createPublicClient, createTestClient, type Hex, http } from 'viem'
import { readChainGas } from './actions/gas'
import type { ChainGas } from './stateDir'

/** One chain's state as a recording keeps it: Anvil's dump and the chain's gas at that moment. */
export type CapturedChainState = { chainId: number; state: Hex; gas: ChainGas }

/**
 * Captures a running chain by its RPC URL: `anvil_dumpState` (accounts, nonces, balances, code,
 * storage, blocks) and its gas (head block, next base fee), which a devnet started with the state
 * dir they are written to restores (`startDevnet`'s boot: the next base fee as captured).
 *
 * @example
 * const captured = await captureChainState(10, 'http://127.0.0.1:8545')
 */
export async function captureChainState(chainId: number, rpcUrl: string): Promise<CapturedChainState> {
  const transport = http(rpcUrl, { retryCount: 0, timeout: 60_000 })
  const test = createTestClient({ mode: 'anvil', transport })
  const read = createPublicClient({ transport })
  // Gas first, then the dump: nothing mines in between on an idle devnet, and a block that did
  // would show as a head the boot does not find (its gas is then left as Anvil loads it).
  const gas = await readChainGas(read)
  return { chainId, state: await test.dumpState(), gas }
}
