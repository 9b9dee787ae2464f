import { createPublicClient, createWalletClient, defineChain, parseEther } from 'viem'
import { mnemonicToAccount } from 'viem/accounts'
import { afterAll, beforeAll, expect, test } from 'vitest'
import { keepAliveTransport } from '../../lib/keepAliveTransport'
import { recordMethods } from '../../lib/testing/recordMethods'
import { type AnvilInstance, startAnvil } from '../devnet/anvil'
import { DEV_MNEMONIC } from '../devnet/keys'
import { minedAt } from './minedAt'

let anvil: AnvilInstance
beforeAll(async () => {
  anvil = await startAnvil({ chainId: 10 })
})
afterAll(() => anvil?.stop())

function clients() {
  const methods: string[] = []
  const transport = keepAliveTransport(anvil.rpcUrl)
  const counted = recordMethods(transport, methods)
  const chain = defineChain({
    id: 10,
    name: 'OP Mainnet',
    nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 },
    rpcUrls: { default: { http: [anvil.rpcUrl] } },
  })
  const account = mnemonicToAccount(DEV_MNEMONIC, { addressIndex: 4 })
  return {
    methods,
    publicClient: createPublicClient({ chain, transport: counted }),
    wallet: createWalletClient({ chain, transport: counted, account }),
  }
}

test("a receipt's block time is Anvil's blockTimestamp, the block's, read without a round trip", async () => {
  const { publicClient, wallet, methods } = clients()
  // A block time that is not "now", so a wrong source shows.
  await publicClient.request({
    method: 'evm_setNextBlockTimestamp' as never,
    params: [4_000_000_000] as never,
  })
  const hash = await wallet.sendTransaction({
    to: mnemonicToAccount(DEV_MNEMONIC, { addressIndex: 5 }).address,
    value: parseEther('0.01'),
  })
  const receipt = await publicClient.waitForTransactionReceipt({ hash })
  const block = await publicClient.getBlock({ blockNumber: receipt.blockNumber })
  expect(block.timestamp).toBe(4_000_000_000n)
  methods.length = 0
  expect(await minedAt(publicClient, receipt)).toBe(4_000_000_000)
  expect(methods).toEqual([])
})

test('without a blockTimestamp (another node), or with one that is not a time, the block is read', async () => {
  const { publicClient, methods } = clients()
  const block = await publicClient.getBlock({ blockTag: 'latest' })
  for (const blockTimestamp of [undefined, null, 'soon', 0, -1]) {
    methods.length = 0
    expect(await minedAt(publicClient, { blockNumber: block.number, blockTimestamp })).toBe(
      Number(block.timestamp),
    )
    expect(methods).toEqual(['eth_getBlockByNumber'])
  }
  // A log's, as viem formats it (a bigint), and a hex quantity.
  methods.length = 0
  expect(await minedAt(publicClient, { blockNumber: 1n, blockTimestamp: 1_234n })).toBe(1_234)
  expect(await minedAt(publicClient, { blockNumber: 1n, blockTimestamp: '0x10' })).toBe(16)
  expect(methods).toEqual([])
})
