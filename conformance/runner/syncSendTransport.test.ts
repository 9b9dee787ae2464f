import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { type Chain, createPublicClient, createWalletClient, defineChain, type Hex, parseEther } from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { type AnvilInstance, startAnvil } from '../../simulator/devnet/anvil'
import { chainTransport } from './chainClients'

// Real Anvils (automining, with a block time, not mining) and a real proxy that refuses JSON-RPC
// batches and does not serve eth_sendRawTransactionSync, as a vendor's node may: the runner's
// transaction path (its chainTransport: viem's sendTransaction, then waitForTransactionReceipt) on each, counting the
// methods that reach the node.

const key = '0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80' as const
const account = privateKeyToAccount(key)
const to = '0x000000000000000000000000000000000000dEaD'

const chainOf = (rpcUrl: string): Chain =>
  defineChain({
    id: 10,
    name: 'chain-10',
    nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 },
    rpcUrls: { default: { http: [rpcUrl] } },
  })

/** A JSON-RPC proxy to `upstream` that records each method, refuses batches and, unless `sync`, the sync method. */
async function startProxy(upstream: string, sync: boolean) {
  const methods: string[] = []
  const server: Server = createServer((req, res) => {
    let body = ''
    req.on('data', (chunk) => {
      body += chunk
    })
    req.on('end', async () => {
      const call = JSON.parse(body)
      if (Array.isArray(call)) {
        methods.push('batch')
        return res.end(
          JSON.stringify({
            jsonrpc: '2.0',
            id: null,
            error: { code: -32600, message: 'batch requests are not supported' },
          }),
        )
      }
      methods.push(call.method)
      if (!sync && call.method === 'eth_sendRawTransactionSync')
        return res.end(
          JSON.stringify({
            jsonrpc: '2.0',
            id: call.id,
            error: { code: -32601, message: 'the method does not exist' },
          }),
        )
      const answer = await fetch(upstream, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body,
      })
      res.end(await answer.text())
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    methods,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  }
}

/** The runner's way: sendTransaction (fill, sign, send), then waitForTransactionReceipt. */
async function sendAndWait(rpcUrl: string, count = 1) {
  const chain = chainOf(rpcUrl)
  const transport = chainTransport(rpcUrl)
  const wallet = createWalletClient({ account, chain, transport })
  const publicClient = createPublicClient({ chain, transport })
  const results: { hash: Hex; status: string; sentMs: number; minedMs: number }[] = []
  for (let i = 0; i < count; i++) {
    const started = performance.now()
    const hash = await wallet.sendTransaction({ to, value: parseEther('0.001') })
    const sentMs = performance.now() - started
    const receipt = await publicClient.waitForTransactionReceipt({
      hash,
      pollingInterval: 50,
      timeout: 10_000,
    })
    expect(receipt.transactionHash).toBe(hash)
    results.push({ hash, status: receipt.status, sentMs, minedMs: performance.now() - started })
  }
  return results
}

describe('on real Anvils', () => {
  const anvils: AnvilInstance[] = []
  const proxies: { close: () => Promise<void> }[] = []
  const start = async (args: string[] = []) => {
    const anvil = await startAnvil({ chainId: 10, args })
    anvils.push(anvil)
    return anvil
  }
  const proxy = async (upstream: string, sync: boolean) => {
    const made = await startProxy(upstream, sync)
    proxies.push(made)
    return made
  }
  let automining: AnvilInstance
  beforeAll(async () => {
    automining = await start()
  }, 30_000)
  afterAll(async () => {
    await Promise.all([...proxies.map((p) => p.close()), ...anvils.map((a) => a.stop())])
  })

  test('automining: a transaction is a fill and a sync send, its receipt read from the answer', async () => {
    const seen = await proxy(automining.rpcUrl, true)
    const results = await sendAndWait(seen.url, 3)
    expect(results.map((r) => r.status)).toEqual(['success', 'success', 'success'])
    // (An answer slower than 150 ms, on a loaded machine, adds an eth_getTransactionByHash.)
    expect(seen.methods.filter((m) => m !== 'eth_getTransactionByHash')).toEqual([
      'eth_fillTransaction',
      'eth_sendRawTransactionSync',
      'eth_fillTransaction',
      'eth_sendRawTransactionSync',
      'eth_fillTransaction',
      'eth_sendRawTransactionSync',
    ])
  })

  test('a node without the sync method (and without batches): a plain send and receipt polls, the sync method not asked again', async () => {
    const seen = await proxy(automining.rpcUrl, false)
    const results = await sendAndWait(seen.url, 2)
    expect(results.map((r) => r.status)).toEqual(['success', 'success'])
    expect(seen.methods).toEqual([
      'eth_fillTransaction',
      'eth_sendRawTransactionSync',
      'eth_getTransactionByHash',
      'eth_sendRawTransaction',
      'eth_getTransactionReceipt',
      'eth_fillTransaction',
      'eth_sendRawTransaction',
      'eth_getTransactionReceipt',
    ])
  })

  test('a block time: the send is answered once the node has the transaction, before it is mined', async () => {
    const anvil = await start(['--block-time', '2'])
    const seen = await proxy(anvil.rpcUrl, true)
    const [result] = await sendAndWait(seen.url)
    expect(result?.status).toBe('success')
    // Answered once the node had it (~0.15 s), then mined at the next block.
    expect(result?.sentMs).toBeLessThan(1000)
    expect(seen.methods.slice(0, 3)).toEqual([
      'eth_fillTransaction',
      'eth_sendRawTransactionSync',
      'eth_getTransactionByHash',
    ])
  }, 20_000)

  test('no mining: the send is answered with the hash, the receipt waited for until a block is mined', async () => {
    const anvil = await start(['--no-mining'])
    const chain = chainOf(anvil.rpcUrl)
    const transport = chainTransport(anvil.rpcUrl)
    const wallet = createWalletClient({ account, chain, transport })
    const publicClient = createPublicClient({ chain, transport })
    const hash = await wallet.sendTransaction({ to, value: 1n })
    expect(await publicClient.getTransactionReceipt({ hash }).catch((e: Error) => e.name)).toBe(
      'TransactionReceiptNotFoundError',
    )
    const waited = publicClient.waitForTransactionReceipt({ hash, pollingInterval: 50, timeout: 10_000 })
    await publicClient.request({ method: 'anvil_mine' as never, params: ['0x1'] as never })
    expect((await waited).status).toBe('success')
  }, 20_000)

  test('a refused transaction is refused as a plain send refuses it', async () => {
    const chain = chainOf(automining.rpcUrl)
    const transport = chainTransport(automining.rpcUrl)
    const poor = privateKeyToAccount(`0x${'42'.repeat(32)}`)
    const wallet = createWalletClient({ account: poor, chain, transport })
    await expect(
      wallet.sendTransaction({
        to,
        value: 1n,
        gas: 21_000n,
        maxFeePerGas: 10n ** 9n,
        maxPriorityFeePerGas: 1n,
      }),
    ).rejects.toThrow(/insufficient funds|funds/i)
  })
})
