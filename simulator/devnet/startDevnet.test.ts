import { readdirSync, readFileSync } from 'node:fs'
import { createServer } from 'node:net'
import { createWalletClient, erc20Abi, http, parseEther, parseUnits, zeroAddress } from 'viem'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { addresses, tokensByChain } from '../../contracts/addresses'
import { Allocator, TheCompact } from '../../contracts/generated/artifacts'
import { toLockId } from '../../lib/lockTag'
import { DevnetManifest } from '../../spec'
import { DEVNET_LOCK_TAG, FUNDING } from './funding'
import { getArtifact, placementTable } from './placement'
import { type Devnet, startDevnet } from './startDevnet'
import { service } from './testing/serviceInfo'

/** Pids of the Anvil processes this test process started and that still run. */
function childAnvilPids(): number[] {
  return readdirSync('/proc')
    .filter((name) => /^\d+$/.test(name))
    .flatMap((pid) => {
      try {
        const stat = readFileSync(`/proc/${pid}/stat`, 'utf8')
        const [, comm, state, ppid] = stat.match(/^\d+ \((.*)\) (\S+) (\d+)/) ?? []
        return comm === 'anvil' && Number(ppid) === process.pid && state !== 'Z' ? [Number(pid)] : []
      } catch {
        return []
      }
    })
}

describe('startDevnet: four chains', () => {
  let devnet: Devnet
  beforeAll(async () => {
    devnet = await startDevnet()
  })
  afterAll(async () => {
    await devnet?.stop()
  })

  it('runs one Anvil per chain with the real chain ids', async () => {
    expect(devnet.chains.map((chain) => chain.chainId)).toEqual([1, 10, 8453, 42161])
    const ids = await Promise.all(devnet.chains.map((chain) => chain.publicClient.getChainId()))
    expect(ids).toEqual([1, 10, 8453, 42161])
    expect(new Set(devnet.chains.map((chain) => chain.rpcUrl)).size).toBe(4)
    expect(devnet.pids()).toHaveLength(4)
  })

  it('places every contract at its address on every chain', async () => {
    for (const chain of devnet.chains) {
      for (const row of placementTable(chain.chainId)) {
        const code = await chain.publicClient.getCode({ address: row.address })
        expect(code, `${row.name} on ${chain.chainId}`).toBe(getArtifact(row.artifact)?.deployedBytecode)
      }
    }
  })

  it('gives every token its real symbol and decimals', async () => {
    for (const chain of devnet.chains) {
      for (const token of tokensByChain[chain.chainId] ?? []) {
        const read = (functionName: 'symbol' | 'decimals') =>
          chain.publicClient.readContract({ address: token.address, abi: erc20Abi, functionName })
        expect([await read('symbol'), await read('decimals')]).toEqual([token.symbol, token.decimals])
      }
    }
  })

  it('funds the test accounts and the relayer with ether and every token', async () => {
    const { keys } = devnet
    for (const chain of devnet.chains) {
      const client = chain.publicClient
      expect(await client.getBalance({ address: keys.accounts[9]!.address })).toBe(
        parseEther(String(FUNDING.account.ETH)),
      )
      expect(await client.getBalance({ address: keys.relayer.address })).toBe(
        parseEther(String(FUNDING.relayer.ETH)),
      )
      for (const token of tokensByChain[chain.chainId] ?? []) {
        const balanceOf = (address: `0x${string}`) =>
          client.readContract({
            address: token.address,
            abi: erc20Abi,
            functionName: 'balanceOf',
            args: [address],
          })
        const table = (t: { WETH: number; stable: number }) => (token.symbol === 'WETH' ? t.WETH : t.stable)
        for (const account of keys.accounts)
          expect(await balanceOf(account.address)).toBe(
            parseUnits(String(table(FUNDING.account)), token.decimals),
          )
        expect(await balanceOf(keys.relayer.address)).toBe(
          parseUnits(String(table(FUNDING.relayer)), token.decimals),
        )
      }
    }
  })

  it("deposits each test account's share in the Compact under the allocator's lock tag", async () => {
    const { keys } = devnet
    expect(DEVNET_LOCK_TAG).toBe('0x3f00000000000000a110ca70')
    for (const chain of devnet.chains) {
      const client = chain.publicClient
      const tokens = [
        { address: zeroAddress, decimals: 18, symbol: 'ETH' },
        ...(tokensByChain[chain.chainId] ?? []),
      ]
      for (const token of tokens) {
        const id = toLockId(DEVNET_LOCK_TAG, token.address)
        const expected = parseUnits(
          String(
            token.symbol === 'ETH'
              ? FUNDING.compactDeposit.ETH
              : token.symbol === 'WETH'
                ? FUNDING.compactDeposit.WETH
                : FUNDING.compactDeposit.stable,
          ),
          token.decimals,
        )
        for (const account of [keys.accounts[0]!, keys.accounts[9]!]) {
          const balance = await client.readContract({
            address: addresses.compact,
            abi: TheCompact.abi,
            functionName: 'balanceOf',
            args: [account.address, id],
          })
          expect(balance, `${token.symbol} on ${chain.chainId}`).toBe(expected)
        }
        const details = await client.readContract({
          address: addresses.compact,
          abi: TheCompact.abi,
          functionName: 'getLockDetails',
          args: [id],
        })
        expect(details).toContain(addresses.allocator)
      }
      const signer = await client.readContract({
        address: addresses.allocator,
        abi: Allocator.abi,
        functionName: 'signer',
      })
      expect(signer).toBe(keys.allocator.address)
    }
  })

  it('serves a manifest that matches the schema once the service info is set', () => {
    expect(() => devnet.manifest()).toThrow('The devnet manifest has no service part yet.')
    devnet.setServiceInfo(service)
    const manifest = DevnetManifest.parse(devnet.manifest())
    expect(manifest.service).toEqual(service)
    expect(manifest.signers.allocator).toBe(devnet.keys.allocator.address)
    expect(manifest.accounts).toHaveLength(10)
    expect(manifest.accounts[0]).toEqual({
      label: 'test-0',
      address: '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266',
      privateKey: '0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80',
    })
    const base = manifest.chains.find((chain) => chain.chainId === 8453)!
    expect(base.contracts.compact).toBe(addresses.compact)
    expect(base.contracts.allocator).toBe(addresses.allocator)
    expect(base.tokens.map((token) => token.symbol)).toEqual(['USDC', 'WETH'])
    expect(base.rpcUrl).toBe(devnet.chain(8453).rpcUrl)
  })

  it('moves every chain and the service clock together', async () => {
    const before = devnet.now()
    const { now } = await devnet.advanceClock(7200)
    expect(now - before).toBeGreaterThanOrEqual(7200)
    expect(now - before).toBeLessThanOrEqual(7202)
    expect(devnet.offsetSeconds()).toBe(7200)
    for (const chain of devnet.chains) {
      const block = await chain.publicClient.getBlock({ blockTag: 'latest' })
      expect(Math.abs(Number(block.timestamp) - devnet.now())).toBeLessThanOrEqual(1)
    }
    // A later block still follows the clock (Anvil keeps the offset).
    await devnet.chain(10).testClient.mine({ blocks: 1 })
    const later = await devnet.chain(10).publicClient.getBlock({ blockTag: 'latest' })
    expect(Math.abs(Number(later.timestamp) - devnet.now())).toBeLessThanOrEqual(1)
  })

  it('snapshots and reverts every chain and the clock under one id', async () => {
    const chain = devnet.chain(42161)
    const account = devnet.keys.accounts[1]!
    const usdc = tokensByChain[42161]![0]!
    const balance = () =>
      chain.publicClient.readContract({
        address: usdc.address,
        abi: erc20Abi,
        functionName: 'balanceOf',
        args: [account.address],
      })
    const start = await balance()
    const offset = devnet.offsetSeconds()
    const { id } = await devnet.snapshot()
    const wallet = createWalletClient({
      chain: chain.chain,
      transport: http(chain.rpcUrl),
      account: account.account,
    })
    const send = async () => {
      const hash = await wallet.writeContract({
        address: usdc.address,
        abi: erc20Abi,
        functionName: 'transfer',
        args: ['0x000000000000000000000000000000000000bEEF', 5n],
      })
      await chain.publicClient.waitForTransactionReceipt({ hash, pollingInterval: 50 })
    }
    await send()
    await devnet.advanceClock(600)
    expect(await balance()).toBe(start - 5n)
    expect(await devnet.revert(id)).toBe(true)
    expect(await balance()).toBe(start)
    expect(devnet.offsetSeconds()).toBe(offset)
    // The same id can be reverted to again.
    await send()
    expect(await devnet.revert(id)).toBe(true)
    expect(await balance()).toBe(start)
    expect(await devnet.revert('nope')).toBe(false)
  })

  it('reports every chain up', async () => {
    expect(await devnet.health()).toEqual({
      chains: [1, 10, 8453, 42161].map((chainId) => ({ chainId, up: true })),
    })
  })
})

describe('startDevnet: processes', () => {
  it('reports a chain whose Anvil died as down, by id; stop() leaves no process', async () => {
    const devnet = await startDevnet({ chainIds: [1, 10] })
    const pids = devnet.pids()
    expect(childAnvilPids()).toEqual(expect.arrayContaining(pids))
    const chain = devnet.chain(10)
    chain.anvil.kill('SIGKILL')
    await chain.anvil.exited
    expect(await devnet.health()).toEqual({
      chains: [
        { chainId: 1, up: true },
        { chainId: 10, up: false },
      ],
    })
    await devnet.stop()
    expect(childAnvilPids().filter((pid) => pids.includes(pid))).toEqual([])
  })

  it('names the port already in use, and stops the chains that did start', async () => {
    const server = createServer()
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    const port = (server.address() as { port: number }).port
    const before = childAnvilPids()
    try {
      await expect(startDevnet({ chainIds: [1, 10], ports: { 10: port } })).rejects.toThrow(
        `Port ${port} is already in use: cannot start Anvil for chain 10.`,
      )
    } finally {
      server.close()
    }
    expect(childAnvilPids().filter((pid) => !before.includes(pid))).toEqual([])
  })

  it('stops every started Anvil when the boot fails after they started', async () => {
    const before = childAnvilPids()
    // Chain 10 forks an address where nothing listens: Anvil exits, chain 1 was already up.
    await expect(startDevnet({ chainIds: [1, 10], forks: { 10: 'http://127.0.0.1:9' } })).rejects.toThrow(
      /chain 10/,
    )
    expect(childAnvilPids().filter((pid) => !before.includes(pid))).toEqual([])
  })
})
