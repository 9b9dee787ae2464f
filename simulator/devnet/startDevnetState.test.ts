import { mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createWalletClient, erc20Abi, http, parseUnits, zeroAddress } from 'viem'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { addresses, tokensByChain } from '../../contracts/addresses'
import { Allocator, TheCompact } from '../../contracts/generated/artifacts'
import { toLockId } from '../../lib/lockTag'
import { readChainGas } from './actions/gas'
import { bakeBootState } from './bootState'
import { freshBootState } from './bootStateFiles.js'
import { DEVNET_LOCK_TAG, FUNDING } from './funding'
import { placementTable } from './placement'
import { type Devnet, startDevnet } from './startDevnet'
import { service } from './testing/serviceInfo'

describe('startDevnet: state dir and forks', () => {
  const recipient = '0x000000000000000000000000000000000000cafE'

  it('keeps balances, contracts, the clock and the base fees across a restart with --state-dir', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'devnet-state-'))
    try {
      const first = await startDevnet({ chainIds: [8453], stateDir: dir })
      const chain = first.chain(8453)
      const usdc = tokensByChain[8453]![0]!
      const wallet = createWalletClient({
        chain: chain.chain,
        transport: http(chain.rpcUrl),
        account: first.keys.accounts[2]!.account,
      })
      const hash = await wallet.writeContract({
        address: usdc.address,
        abi: erc20Abi,
        functionName: 'transfer',
        args: [recipient, 1234n],
      })
      await chain.publicClient.waitForTransactionReceipt({ hash, pollingInterval: 50 })
      await first.advanceClock(1000)
      const blockNumber = await chain.publicClient.getBlockNumber()
      // What a quote prices gas with: the head's base fee and the next block's.
      const gasBefore = await readChainGas(chain.publicClient)
      await first.stop()
      expect(readdirSync(dir).sort()).toEqual(['chain-8453.state', 'devnet.json'])

      const second = await startDevnet({ chainIds: [8453], stateDir: dir })
      try {
        const again = second.chain(8453)
        expect(second.boot[0]).toMatchObject({ loadedState: true, funded: false, placed: [] })
        const balance = await again.publicClient.readContract({
          address: usdc.address,
          abi: erc20Abi,
          functionName: 'balanceOf',
          args: [recipient],
        })
        expect(balance).toBe(1234n)
        expect(await again.publicClient.getBlockNumber()).toBeGreaterThanOrEqual(blockNumber)
        expect(second.offsetSeconds()).toBeGreaterThanOrEqual(1000)
        const block = await again.publicClient.getBlock({ blockTag: 'latest' })
        expect(Math.abs(Number(block.timestamp) - second.now())).toBeLessThanOrEqual(1)
        // The block that aligned the clocks carries the saved head's base fee, the next one its next.
        const gasAfter = await readChainGas(again.publicClient)
        expect(gasAfter.baseFeePerGas).toBe(gasBefore.baseFeePerGas)
        expect(gasAfter.nextBaseFeePerGas).toBe(gasBefore.nextBaseFeePerGas)
      } finally {
        await second.stop()
      }
    } finally {
      await rm(dir, { recursive: true, force: true })
    }
  })

  it("loads each Anvil's own dump when the devnet died without stopping (its Anvils got SIGTERM)", async () => {
    const dir = await mkdtemp(join(tmpdir(), 'devnet-exit-dump-'))
    try {
      const first = await startDevnet({ chainIds: [8453], stateDir: dir, checkpointIntervalMs: null })
      const chain = first.chain(8453)
      // State after the last checkpoint; enough of it that the plain dump is several MB, more
      // than Anvil takes in one request.
      const code = `0x${'5b'.repeat(24_000)}` as const
      // One at a time: the chain's client batches requests, and a batch this big is refused too.
      for (let i = 0; i < 80; i++)
        await chain.testClient.setCode({
          address: `0x${(0xdead0000 + i).toString(16).padStart(40, '0')}`,
          bytecode: code,
        })
      await chain.testClient.mine({ blocks: 1 })
      const blockNumber = await chain.publicClient.getBlockNumber()
      expect(readdirSync(dir)).toContain('anvils.json')
      // What the parent-death signal does when the service is killed: SIGTERM to every Anvil.
      for (const pid of first.pids()) process.kill(pid, 'SIGTERM')
      await chain.anvil.exited
      expect(readdirSync(dir)).toContain('chain-8453.exit.json')

      const lines: string[] = []
      const second = await startDevnet({ chainIds: [8453], stateDir: dir, log: (line) => lines.push(line) })
      try {
        expect(second.boot[0]).toMatchObject({ loadedState: true, stateSource: 'exit-dump' })
        // The dump was written after the service died: the chains hold all it did.
        expect(second.chainsMayLag()).toBe(false)
        expect(await second.chain(8453).publicClient.getBlockNumber()).toBeGreaterThanOrEqual(blockNumber)
        expect(lines.join('\n')).toMatch(/did not stop cleanly/)
      } finally {
        await second.stop()
      }
      expect(readdirSync(dir).sort()).toEqual(['chain-8453.state', 'devnet.json'])
      await first.stop()
    } finally {
      await rm(dir, { recursive: true, force: true })
    }
  })

  it('says the chains may lag when they died with the service and came back from a checkpoint', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'devnet-lag-'))
    try {
      const first = await startDevnet({ chainIds: [8453], stateDir: dir, checkpointIntervalMs: null })
      await first.checkpoint()
      await first.chain(8453).testClient.mine({ blocks: 3 })
      // Killed with no time to write a dump: the machine went down with everything on it.
      for (const pid of first.pids()) process.kill(pid, 'SIGKILL')
      await first.chain(8453).anvil.exited
      const second = await startDevnet({ chainIds: [8453], stateDir: dir })
      try {
        expect(second.boot[0]).toMatchObject({ loadedState: true, stateSource: 'checkpoint' })
        expect(second.chainsMayLag()).toBe(true)
      } finally {
        await second.stop()
      }
      const third = await startDevnet({ chainIds: [8453], stateDir: dir })
      expect(third.chainsMayLag()).toBe(false)
      const { id } = await third.snapshot()
      await third.revert(id)
      expect(third.chainsMayLag()).toBe(true)
      await third.stop()
      await first.stop()
    } finally {
      await rm(dir, { recursive: true, force: true })
    }
  })

  it('refuses a state dir a running devnet uses', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'devnet-busy-'))
    try {
      const first = await startDevnet({ chainIds: [8453], stateDir: dir })
      try {
        await expect(startDevnet({ chainIds: [8453], stateDir: dir })).rejects.toThrow(
          /in use by a running devnet/,
        )
      } finally {
        await first.stop()
      }
    } finally {
      await rm(dir, { recursive: true, force: true })
    }
  })

  it('forks a live chain: keeps its contracts, overrides the allocator signer, funds our accounts', async () => {
    // "The live chain": a devnet of other keys (so a different allocator signer and token minter).
    const live = await startDevnet({
      chainIds: [8453],
      mnemonic: 'legal winner thank year wave sausage worth useful legal winner thank yellow',
      accountCount: 2,
    })
    try {
      const fork = await startDevnet({ chainIds: [8453], forks: { 8453: live.chain(8453).rpcUrl } })
      try {
        const chain = fork.chain(8453)
        expect(fork.boot[0]?.placed).toEqual([])
        expect(chain.forkUrl).toBe(live.chain(8453).rpcUrl)
        const signer = (client: typeof chain.publicClient) =>
          client.readContract({ address: addresses.allocator, abi: Allocator.abi, functionName: 'signer' })
        expect(await signer(chain.publicClient)).toBe(fork.keys.allocator.address)
        expect(await signer(live.chain(8453).publicClient)).toBe(live.keys.allocator.address)
        const usdc = tokensByChain[8453]![0]!
        const balance = await chain.publicClient.readContract({
          address: usdc.address,
          abi: erc20Abi,
          functionName: 'balanceOf',
          args: [fork.keys.accounts[0]!.address],
        })
        expect(balance).toBe(parseUnits(String(FUNDING.account.stable), 6))
        const deposit = await chain.publicClient.readContract({
          address: addresses.compact,
          abi: TheCompact.abi,
          functionName: 'balanceOf',
          args: [fork.keys.accounts[0]!.address, toLockId(DEVNET_LOCK_TAG, usdc.address)],
        })
        expect(deposit).toBe(parseUnits(String(FUNDING.compactDeposit.stable), 6))
        fork.setServiceInfo(service)
        expect(fork.manifest().chains[0]?.forkUrl).toBe(live.chain(8453).rpcUrl)
      } finally {
        await fork.stop()
      }
    } finally {
      await live.stop()
    }
  })
})

describe('startDevnet from the baked boot state (bootState.ts)', () => {
  // A bake of its own, in a project root of its own: a stand-in bundle and its stamp (no inputs),
  // as scripts/build.ts writes them; the dumps are baked by the real code, on real Anvils.
  const chainIds = [10, 8453]
  let root: string
  let placed: Devnet
  beforeAll(async () => {
    root = await mkdtemp(join(tmpdir(), 'boot-state-'))
    mkdirSync(join(root, 'dist'))
    writeFileSync(join(root, 'dist/intent-devnet.mjs'), '// a bundle\n')
    const bundle = statSync(join(root, 'dist/intent-devnet.mjs'))
    writeFileSync(
      join(root, 'dist/intent-devnet.stamp.json'),
      JSON.stringify({ bundle: { size: bundle.size, mtimeMs: bundle.mtimeMs }, inputs: [] }),
    )
    await bakeBootState({ root, chainIds })
    placed = await startDevnet({ chainIds })
  }, 60_000)
  afterAll(async () => {
    await placed?.stop()
    if (root) await rm(root, { recursive: true, force: true })
  })

  /** What a boot leaves on a chain: heights, every placed code, the keys' balances, deposits, approvals. */
  const chainState = async (devnet: Devnet, chainId: number) => {
    const client = devnet.chain(chainId).publicClient
    const { keys } = devnet
    const holders = [...keys.accounts, keys.relayer, keys.funder].map((key) => key.address)
    const tokens = tokensByChain[chainId] ?? []
    return {
      height: await client.getBlockNumber({ cacheTime: 0 }),
      codes: await Promise.all(
        placementTable(chainId).map((row) => client.getCode({ address: row.address })),
      ),
      ether: await Promise.all(holders.map((address) => client.getBalance({ address }))),
      tokens: await Promise.all(
        tokens.flatMap((token) =>
          holders.map((address) =>
            client.readContract({
              address: token.address,
              abi: erc20Abi,
              functionName: 'balanceOf',
              args: [address],
            }),
          ),
        ),
      ),
      deposits: await Promise.all(
        [zeroAddress, ...tokens.map((token) => token.address)].flatMap((token) =>
          keys.accounts.map((account) =>
            client.readContract({
              address: addresses.compact,
              abi: TheCompact.abi,
              functionName: 'balanceOf',
              args: [account.address, toLockId(DEVNET_LOCK_TAG, token)],
            }),
          ),
        ),
      ),
      fillerAllowances: await Promise.all(
        tokens.map((token) =>
          client.readContract({
            address: token.address,
            abi: erc20Abi,
            functionName: 'allowance',
            args: [keys.relayer.address, addresses.filler],
          }),
        ),
      ),
      signer: await client.readContract({
        address: addresses.allocator,
        abi: Allocator.abi,
        functionName: 'signer',
      }),
    }
  }

  it('boots each chain to the state placement and funding make, with the clock on time', async () => {
    expect(Object.keys(freshBootState(root)?.chains ?? {}).sort()).toEqual(['10', '8453'])
    const devnet = await startDevnet({ chainIds, bootState: { root } })
    try {
      expect(devnet.boot.map((chain) => chain.bootState)).toEqual([true, true])
      expect(placed.boot.map((chain) => chain.bootState)).toEqual([undefined, undefined])
      for (const chainId of chainIds) {
        const state = await chainState(devnet, chainId)
        expect(state.codes.every((code) => code && code.length > 2)).toBe(true)
        expect(state.fillerAllowances.every((allowance) => allowance === 2n ** 256n - 1n)).toBe(true)
        expect(state, `chain ${chainId}`).toEqual(await chainState(placed, chainId))
        // The bake's blocks are older, but the head the clock aligned is now, as after a placement.
        const head = await devnet.chain(chainId).publicClient.getBlock({ blockTag: 'latest' })
        expect(Math.abs(Number(head.timestamp) - devnet.now())).toBeLessThanOrEqual(2)
        expect(devnet.offsetSeconds()).toBe(0)
      }
    } finally {
      await devnet.stop()
    }
  }, 60_000)

  it('places instead when the state is not the one baked, or the bake is stale or does not apply', async () => {
    // A chain whose dump does not end at the block the stamp names: started anew and placed.
    const stampPath = join(root, 'dist/devnet-state/stamp.json')
    const stamp = JSON.parse(readFileSync(stampPath, 'utf8'))
    stamp.chains['10'].blockHash = `0x${'ab'.repeat(32)}`
    writeFileSync(stampPath, JSON.stringify(stamp))
    const devnet = await startDevnet({ chainIds, bootState: { root } })
    try {
      expect(devnet.boot.map((chain) => chain.bootState)).toEqual([undefined, true])
      expect(devnet.boot[0]?.placed).toContain('allocator')
      expect(await chainState(devnet, 10)).toEqual(await chainState(placed, 10))
    } finally {
      await devnet.stop()
    }
    // Other keys, or a bundle rebuilt since the bake: no boot state at all.
    const other = await startDevnet({ chainIds: [8453], bootState: { root }, accountCount: 3 })
    await other.stop()
    expect(other.boot[0]?.bootState).toBeUndefined()
    writeFileSync(join(root, 'dist/intent-devnet.mjs'), '// another bundle\n')
    expect(freshBootState(root)).toBeUndefined()
  }, 60_000)
})
