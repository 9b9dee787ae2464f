import { createTestClient, http, parseEther } from 'viem'
import { afterAll, beforeAll, expect, test } from 'vitest'
import { depositsInBlock, READ_AHEAD, readHead, scanBlocks } from './chainWatcher'
import { startTestChains, type TestChains } from './testing/startTestChains'

let chains: TestChains
beforeAll(async () => {
  chains = await startTestChains([1])
})
afterAll(() => chains?.stop())

test('readHead reads block cursor + 1 whole with the head, and its deposits are the ones scanBlocks finds', async () => {
  const { keys } = chains
  const chain = chains.chains[0]!
  const client = chain.publicClient
  const usdc = chains.token(1, 'USDC').address
  const [user, watched, other, reverting] = [1, 2, 3, 4].map((i) => keys.accounts[i]!)
  // An account whose code reverts: ether sent to it fails (a reverted transaction is no deposit).
  const testClient = createTestClient({
    chain: chain.relayer.chain!,
    transport: http(client.transport.url),
    mode: 'anvil',
  })
  await testClient.setCode({ address: reverting!.address, bytecode: '0x60006000fd' })
  const from = (await client.getBlockNumber({ cacheTime: 0 })) + 1n
  await chains.mint(1, usdc, user!.address, 10n ** 12n)
  await chains.transfer(1, user!, usdc, watched!.address, 7_000n)
  await chains.transfer(1, user!, usdc, other!.address, 8_000n)
  await chains.transfer(1, user!, usdc, watched!.address, 0n)
  await chains.sendEther(1, user!, watched!.address, parseEther('0.25'))
  await chains.sendEther(1, keys.relayer, watched!.address, parseEther('0.5'))
  await chains.sendEther(1, user!, other!.address, parseEther('0.5'))
  const failed = await testClient.request({
    method: 'eth_sendTransaction' as never,
    params: [{ from: user!.address, to: reverting!.address, value: '0x1000', gas: '0x186a0' }] as never,
  })
  await client.waitForTransactionReceipt({ hash: failed as `0x${string}` })
  const to = await client.getBlockNumber({ cacheTime: 0 })
  const parameters = {
    chainId: 1,
    accounts: [watched!.address, reverting!.address],
    ignoreSenders: [keys.relayer.address],
  }
  const scanned = await scanBlocks({ client, fromBlock: from, toBlock: to, ...parameters })
  // The transfer of 7000 and the 0.25 ether: not the zero transfer, the relayer's, the other's, the reverted.
  expect(scanned.map((d) => d.amount)).toEqual([7_000n, parseEther('0.25')])
  const read = []
  for (let n = from; n <= to; n += BigInt(READ_AHEAD)) {
    const { head, blocks } = await readHead({ client, next: n })
    expect(head).toBe(to)
    // READ_AHEAD blocks from n on, but none after the head.
    const last = n + BigInt(READ_AHEAD) - 1n < to ? n + BigInt(READ_AHEAD) - 1n : to
    expect(blocks.map((b) => b.block.number)).toEqual(
      Array.from({ length: Number(last - n) + 1 }, (_, i) => n + BigInt(i)),
    )
    for (const whole of blocks) read.push(...depositsInBlock(whole, parameters))
  }
  expect(read).toEqual(scanned)
  // No block after the head: only the head, and the caller scans nothing.
  expect(await readHead({ client, next: to + 1n })).toEqual({ head: to, blocks: [] })
  expect(await readHead({ client })).toEqual({ head: to, blocks: [] })
})
