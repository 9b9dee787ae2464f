import { type Hex, toHex } from 'viem'
import type { DevnetChain } from '../chain'
import { type DevnetState, liveChains } from '../devnetState'
import { DevnetError } from '../errors'
import type { ChainGas } from '../stateDir'
import { saveMeta } from './checkpoint'
import { restoreChainGas } from './gas'

/**
 * Makes every chain's time agree with the clock: the next block of each chain is stamped
 * `wall + offset` and mined (Anvil then keeps that offset to wall time for later blocks). A chain
 * already ahead of the clock (state loaded from a later run, a fork of a chain whose clock runs
 * fast) pulls the clock forward instead: chain time never goes back. The offset may be negative
 * (a devnet at an instant in the past: a replay at the time its recording began). Returns the new
 * offset.
 * With `gas`, a chain it names gets its saved gas back around that block (restoreChainGas).
 * With `mine: false` no block is mined: each Anvil's time is set to the clock (`evm_setTime`, the
 * blocks after are stamped from there) and a chain named by `gas` gets its next block's base fee,
 * so the chains keep their block numbers (a replay numbers its blocks as the recording did).
 *
 * @example
 * state.offset = await alignClocks(state.chains, state.offset)
 */
export async function alignClocks(
  chains: readonly DevnetChain[],
  offset: number,
  gas: (chainId: number) => ChainGas | undefined = () => undefined,
  options: { mine?: boolean } = {},
): Promise<number> {
  const latest = await Promise.all(chains.map((chain) => chain.publicClient.getBlock({ blockTag: 'latest' })))
  const wall = Math.floor(Date.now() / 1000)
  // Where the latest chain head stands to the wall clock (negative for chains in the past).
  const ahead = Math.max(...latest.map((block) => Number(block.timestamp) - wall))
  const next = Math.max(offset, ahead)
  const target = BigInt(wall + next)
  const mineBlock = options.mine ?? true
  await Promise.all(
    chains.map(async (chain) => {
      const saved = gas(chain.chainId)
      // An instant before the wall clock (a replay at its recorded time): an Anvil started now
      // counts its genesis, stamped now, as its last block whatever state it loaded, and refuses
      // an earlier stamp. `evm_setTime` moves its time there (never below a head: `target` is at
      // least every chain's latest block); without a block mined, it is the alignment itself.
      if (next < 0 || !mineBlock)
        await chain.testClient.request<{ Method: 'evm_setTime'; Parameters: [Hex]; ReturnType: unknown }>({
          method: 'evm_setTime',
          params: [toHex(target)],
        })
      if (!mineBlock) {
        if (saved)
          await chain.testClient.setNextBlockBaseFeePerGas({ baseFeePerGas: BigInt(saved.nextBaseFeePerGas) })
        return
      }
      await chain.testClient.setNextBlockTimestamp({ timestamp: target })
      const mine = () => chain.testClient.mine({ blocks: 1 })
      await (saved ? restoreChainGas(chain, saved, mine) : mine())
    }),
  )
  return next
}

/**
 * Moves the clock forward by whole seconds, every live chain with it, and saves the new offset at
 * once (a crash must not turn the clock back).
 *
 * @example
 * const { now } = await advanceClock(state, 3600)
 */
export async function advanceClock(state: DevnetState, seconds: number): Promise<{ now: number }> {
  if (!Number.isInteger(seconds) || seconds < 0)
    throw new DevnetError(`The clock moves forward by whole seconds; got ${seconds}.`)
  state.offset += seconds
  state.offset = await alignClocks(liveChains(state), state.offset)
  await saveMeta(state)
  return { now: nowSeconds(state) }
}

/**
 * The devnet's time, unix seconds: the wall clock plus the offset.
 *
 * @example
 * nowSeconds(state) // 1795652677
 */
export function nowSeconds(state: DevnetState): number {
  return Math.floor(Date.now() / 1000) + state.offset
}
