import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { readChainGas } from './actions/gas'
import { startAnvil } from './anvil'
import { startDevnet } from './startDevnet'

const DAY = 86_400
const wallSeconds = () => Math.floor(Date.now() / 1000)

describe('startDevnet: clockAt, a devnet at an instant in the past', () => {
  it('starts its chains and clock at the instant asked for, from a state an Anvil started now loads', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'devnet-clock-at-'))
    const past = wallSeconds() - 30 * DAY
    try {
      // A devnet that lived 30 days ago (its Anvil's genesis then), stopped into a state dir.
      const first = await startDevnet({
        chainIds: [8453],
        stateDir: dir,
        clockAt: past,
        launchAnvil: (p) => startAnvil({ ...p, args: [...(p.args ?? []), '--timestamp', String(past - 60)] }),
      })
      expect(first.now() - past).toBeLessThanOrEqual(1)
      expect(first.offsetSeconds()).toBeLessThan(-30 * DAY + 5)
      const head = await first.chain(8453).publicClient.getBlock({ blockTag: 'latest' })
      expect(Number(head.timestamp)).toBe(past)
      await first.chain(8453).testClient.mine({ blocks: 2 })
      const gasBefore = await readChainGas(first.chain(8453).publicClient)
      await first.stop()

      // Loaded again by an Anvil started now (its genesis stamped now), at an instant after the
      // saved head: no block is mined to align it (the block numbers stay the saved ones), the
      // clock is at that instant and the next block is stamped from there, not from the wall clock.
      const at = past + 600
      const second = await startDevnet({ chainIds: [8453], stateDir: dir, clockAt: at })
      try {
        const chain = second.chain(8453)
        expect(String(await chain.publicClient.getBlockNumber({ cacheTime: 0 }))).toBe(gasBefore.blockNumber)
        expect(second.now() - at).toBeLessThanOrEqual(2)
        // The saved gas: the head's base fee and the next block's.
        const gasAfter = await readChainGas(chain.publicClient)
        expect(gasAfter).toEqual(gasBefore)
        await chain.testClient.mine({ blocks: 1 })
        const mined = await chain.publicClient.getBlock({ blockTag: 'latest' })
        expect(mined.number).toBe(BigInt(gasBefore.blockNumber) + 1n)
        expect(mined.baseFeePerGas).toBe(BigInt(gasBefore.nextBaseFeePerGas))
        expect(Number(mined.timestamp) - at).toBeGreaterThanOrEqual(0)
        expect(Math.abs(Number(mined.timestamp) - second.now())).toBeLessThanOrEqual(1)
        // Later blocks follow the clock in the past (Anvil keeps the negative offset), and the
        // clock still moves forward on request.
        await new Promise((resolve) => setTimeout(resolve, 1100))
        await chain.testClient.mine({ blocks: 1 })
        const later = await chain.publicClient.getBlock({ blockTag: 'latest' })
        expect(Math.abs(Number(later.timestamp) - second.now())).toBeLessThanOrEqual(1)
        expect(Number(later.timestamp)).toBeLessThan(wallSeconds() - 29 * DAY)
        const { now } = await second.advanceClock(3600)
        const advanced = await chain.publicClient.getBlock({ blockTag: 'latest' })
        expect(Math.abs(Number(advanced.timestamp) - now)).toBeLessThanOrEqual(1)
        expect(now - at).toBeGreaterThanOrEqual(3600)
      } finally {
        await second.stop()
      }

      // An instant before the saved head: chain time never goes back, the clock is pulled to it.
      const third = await startDevnet({ chainIds: [8453], stateDir: dir, clockAt: past - DAY })
      try {
        const headNow = await third.chain(8453).publicClient.getBlock({ blockTag: 'latest' })
        expect(Number(headNow.timestamp)).toBeGreaterThanOrEqual(past + 600 + 3600)
        expect(Math.abs(Number(headNow.timestamp) - third.now())).toBeLessThanOrEqual(1)
      } finally {
        await third.stop()
      }
    } finally {
      await rm(dir, { recursive: true, force: true })
    }
  }, 120_000)
})
