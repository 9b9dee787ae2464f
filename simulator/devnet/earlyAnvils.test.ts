import { createPublicClient, http } from 'viem'
import { afterEach, describe, expect, it } from 'vitest'
import { earlyAnvilLauncher } from './anvil'
import { EARLY_ANVILS, type EarlyAnvil, spawnEarlyAnvil } from './anvilProcess.js'

// The Anvils bin/intent-devnet.js starts before the CLI loads (issue 18), adopted by startDevnet
// through earlyAnvilLauncher: real processes, spawned as the bin spawns them.
const registry = globalThis as { [key: symbol]: EarlyAnvil[] | undefined }
const gone = (pid: number) => {
  try {
    process.kill(pid, 0)
    return false
  } catch {
    return true
  }
}
const waitGone = async (pid: number) => {
  const deadline = Date.now() + 10_000
  while (!gone(pid) && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 25))
  return gone(pid)
}

afterEach(() => {
  delete registry[Symbol.for(EARLY_ANVILS)]
})

describe('earlyAnvilLauncher', () => {
  it('is undefined when the bin started no Anvils', () => {
    expect(earlyAnvilLauncher()).toBeUndefined()
  })

  it('adopts the early Anvil of the same chain, starts the others itself, and stops the unused', async () => {
    const early = [
      spawnEarlyAnvil({ chainId: 10, host: '127.0.0.1' }),
      spawnEarlyAnvil({ chainId: 1, host: '127.0.0.1' }),
    ]
    registry[Symbol.for(EARLY_ANVILS)] = [...early]
    const launcher = earlyAnvilLauncher()!
    expect(launcher).toBeDefined()
    // Taken once: a second launcher finds none.
    expect(earlyAnvilLauncher()).toBeUndefined()

    const adopted = await launcher.launch({ chainId: 10 })
    const started = await launcher.launch({ chainId: 8453 })
    // Chain 1 with a dump file is not what the bin started: a new Anvil, not the early one.
    const withDump = await launcher.launch({ chainId: 1, dumpStatePath: '/tmp/early-anvils-test-dump.json' })
    try {
      expect(adopted.pid).toBe(early[0]!.child.pid)
      expect(started.pid).not.toBe(early[1]!.child.pid)
      expect(withDump.pid).not.toBe(early[1]!.child.pid)
      for (const [anvil, chainId] of [
        [adopted, 10],
        [started, 8453],
        [withDump, 1],
      ] as const) {
        const client = createPublicClient({ transport: http(anvil.rpcUrl) })
        expect(await client.getChainId()).toBe(chainId)
        expect(anvil.alive).toBe(true)
      }
      launcher.release()
      expect(await waitGone(early[1]!.child.pid!)).toBe(true)
      expect(adopted.alive).toBe(true)
    } finally {
      await Promise.all([adopted.stop(), started.stop(), withDump.stop()])
    }
    expect(adopted.alive).toBe(false)
    expect(await waitGone(adopted.pid)).toBe(true)
  })

  it('reports an early Anvil that exits before it listens', async () => {
    const early = spawnEarlyAnvil({ chainId: 10, host: 'not-a-host.invalid' })
    registry[Symbol.for(EARLY_ANVILS)] = [early]
    await expect(earlyAnvilLauncher()!.launch({ chainId: 10, host: 'not-a-host.invalid' })).rejects.toThrow(
      'Anvil for chain 10 exited before listening',
    )
  })
})
