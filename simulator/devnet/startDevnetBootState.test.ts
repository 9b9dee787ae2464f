import { mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { erc20Abi, zeroAddress } from 'viem'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { addresses, tokensByChain } from '../../contracts/addresses'
import { Allocator, TheCompact } from '../../contracts/generated/artifacts'
import { bakeBootState } from './bootState'
import { freshBootState } from './bootStateFiles.js'
import { DEVNET_LOCK_TAG } from './funding'
import { toLockId } from './lockTag'
import { placementTable } from './placement'
import { type Devnet, startDevnet } from './startDevnet'

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
