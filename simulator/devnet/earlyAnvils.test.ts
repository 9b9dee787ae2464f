import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { gunzipSync } from 'node:zlib'
import { createPublicClient, createTestClient, hexToBytes, http } from 'viem'
import { afterEach, describe, expect, it } from 'vitest'
import { isAlive } from '../../test/support/processes'
import { earlyAnvilLauncher, startAnvil } from './anvil'
import { EARLY_ANVILS, type EarlyAnvil, spawnEarlyAnvil } from './anvilProcess.js'

// The Anvils bin/intent-devnet.js starts before the CLI loads (issue 18), adopted by startDevnet
// through earlyAnvilLauncher: real processes, spawned as the bin spawns them.
const registry = globalThis as { [key: symbol]: EarlyAnvil[] | undefined }
const gone = (pid: number) => !isAlive(pid)
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

  it('adopts an early Anvil started from a state file only for a launch from the same file', async () => {
    // A state of chain 10 with a balance no fresh chain has, dumped by a real Anvil.
    const source = await startAnvil({ chainId: 10 })
    const dir = mkdtempSync(join(tmpdir(), 'early-anvils-state-'))
    const statePath = join(dir, 'chain-10.json')
    try {
      const client = createTestClient({ mode: 'anvil', transport: http(source.rpcUrl) })
      await client.setBalance({ address: `0x${'42'.repeat(20)}`, value: 4242n })
      writeFileSync(statePath, gunzipSync(hexToBytes(await client.dumpState())))
    } finally {
      await source.stop()
    }
    const early = [
      spawnEarlyAnvil({ chainId: 10, host: '127.0.0.1', loadStatePath: statePath }),
      spawnEarlyAnvil({ chainId: 8453, host: '127.0.0.1', loadStatePath: statePath }),
    ]
    registry[Symbol.for(EARLY_ANVILS)] = [...early]
    const launcher = earlyAnvilLauncher()!
    const adopted = await launcher.launch({ chainId: 10, loadStatePath: statePath })
    // Without the file: not the early Anvil (it holds a state this launch did not ask for).
    const plain = await launcher.launch({ chainId: 8453 })
    try {
      expect(adopted.pid).toBe(early[0]!.child.pid)
      expect(plain.pid).not.toBe(early[1]!.child.pid)
      const balance = (url: string) =>
        createPublicClient({ transport: http(url) }).getBalance({ address: `0x${'42'.repeat(20)}` })
      expect(await balance(adopted.rpcUrl)).toBe(4242n)
      expect(await balance(plain.rpcUrl)).toBe(0n)
      launcher.release()
      expect(await waitGone(early[1]!.child.pid!)).toBe(true)
    } finally {
      await Promise.all([adopted.stop(), plain.stop()])
      rmSync(dir, { recursive: true, force: true })
    }
  })

  it('reports an early Anvil that exits before it listens', async () => {
    const early = spawnEarlyAnvil({ chainId: 10, host: 'not-a-host.invalid' })
    registry[Symbol.for(EARLY_ANVILS)] = [early]
    await expect(earlyAnvilLauncher()!.launch({ chainId: 10, host: 'not-a-host.invalid' })).rejects.toThrow(
      'Anvil for chain 10 exited before listening',
    )
  })
})
