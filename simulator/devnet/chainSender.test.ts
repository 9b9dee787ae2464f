import { createPublicClient, createTestClient, createWalletClient, defineChain, http, parseEther } from 'viem'
import { mnemonicToAccount } from 'viem/accounts'
import { afterAll, beforeAll, expect, test } from 'vitest'
import { keepAliveTransport } from '../../lib/keepAliveTransport'
import { nodeHttpFetch } from '../../lib/nodeHttpFetch'
import { recordMethods } from '../../lib/testing/recordMethods'
import { type AnvilInstance, startAnvil } from './anvil'
import { createChainSender, estimateFees } from './chainSender'
import { DEV_MNEMONIC } from './keys'

let anvil: AnvilInstance
beforeAll(async () => {
  anvil = await startAnvil({ chainId: 10 })
})
afterAll(() => anvil?.stop())

/** The devnet's clients on the Anvil (simulator/devnet/chain.ts), with every JSON-RPC request's methods kept. */
function clients() {
  const requests: string[][] = []
  const fetchFn = nodeHttpFetch()
  const chain = defineChain({
    id: 10,
    name: 'OP Mainnet',
    nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 },
    rpcUrls: { default: { http: [anvil.rpcUrl] } },
  })
  const transport = http(anvil.rpcUrl, {
    batch: { batchSize: 2_000, wait: 0 },
    retryCount: 0,
    fetchFn: (input, init) => {
      const body = JSON.parse(String(init?.body)) as { method: string } | { method: string }[]
      requests.push((Array.isArray(body) ? body : [body]).map((call) => call.method))
      return fetchFn(input, init)
    },
  })
  const account = mnemonicToAccount(DEV_MNEMONIC, { addressIndex: 3 })
  return {
    requests,
    publicClient: createPublicClient({ chain, transport }),
    relayerClient: createWalletClient({ chain, transport, account }),
    testClient: createTestClient({ chain, mode: 'anvil', transport }),
  }
}

test("estimateFees: viem's estimateFeesPerGas (base fee × 1.2 + priority fee) in one round trip", async () => {
  const { publicClient, requests } = clients()
  const viemFees = await publicClient.estimateFeesPerGas()
  requests.length = 0
  const fees = await estimateFees(publicClient)
  expect(fees).toEqual({
    maxFeePerGas: viemFees.maxFeePerGas,
    maxPriorityFeePerGas: viemFees.maxPriorityFeePerGas,
  })
  expect(requests).toEqual([['eth_getBlockByNumber', 'eth_maxPriorityFeePerGas']])
})

test('a send estimates gas and fees in one round trip, then takes the nonce and broadcasts; it is mined', async () => {
  const { publicClient, relayerClient, requests } = clients()
  const sender = createChainSender({ chain: { chainId: 10, publicClient, relayerClient } })
  const to = mnemonicToAccount(DEV_MNEMONIC, { addressIndex: 9 }).address
  const before = await publicClient.getBalance({ address: to })
  requests.length = 0
  const hash = await sender.send({ to, data: '0x', value: parseEther('0.5') })
  expect(requests[0]?.sort()).toEqual(
    ['eth_estimateGas', 'eth_getBlockByNumber', 'eth_maxPriorityFeePerGas'].sort(),
  )
  expect(requests.slice(1)).toEqual([['eth_getTransactionCount'], ['eth_sendRawTransaction']])
  const receipt = await sender.waitForReceipt(hash)
  expect(receipt.status).toBe('success')
  expect(await publicClient.getBalance({ address: to })).toBe(before + parseEther('0.5'))
})

test('a send that would revert throws at the estimate, and nothing is sent', async () => {
  const { publicClient, relayerClient, testClient, requests } = clients()
  const sender = createChainSender({ chain: { chainId: 10, publicClient, relayerClient } })
  // A contract that always reverts (PUSH1 0, PUSH1 0, REVERT).
  const reverts = '0x00000000000000000000000000000000000d0d0d'
  await testClient.setCode({ address: reverts, bytecode: '0x60006000fd' })
  requests.length = 0
  await expect(sender.send({ to: reverts, data: '0x12345678' })).rejects.toThrow(/revert/i)
  expect(requests.flat()).not.toContain('eth_sendRawTransaction')
})

test("on the simulator's transport (keepAliveTransport, batch), the estimate and the fees share one round trip", async () => {
  const { publicClient: viaHttp } = clients()
  const methods: string[] = []
  let roundTrips = 0
  const transport = keepAliveTransport(anvil.rpcUrl, {
    batch: { maxSize: 2_000 },
    onRoundTrip: () => {
      roundTrips++
    },
  })
  const counted = recordMethods(transport, methods)
  const chain = viaHttp.chain
  const account = mnemonicToAccount(DEV_MNEMONIC, { addressIndex: 3 })
  const publicClient = createPublicClient({ chain, transport: counted })
  const relayerClient = createWalletClient({ chain, transport: counted, account })
  const sender = createChainSender({ chain: { chainId: 10, publicClient, relayerClient } })
  const to = mnemonicToAccount(DEV_MNEMONIC, { addressIndex: 8 }).address
  const hash = await sender.send({ to, data: '0x', value: parseEther('0.1') })
  // Estimate + block + priority fee, the nonce (first send only), the broadcast.
  expect(methods.slice(0, 3).sort()).toEqual([
    'eth_estimateGas',
    'eth_getBlockByNumber',
    'eth_maxPriorityFeePerGas',
  ])
  expect(methods.slice(3)).toEqual(['eth_getTransactionCount', 'eth_sendRawTransaction'])
  expect(roundTrips).toBe(3)
  expect((await sender.waitForReceipt(hash)).status).toBe('success')
})

test('automine: a send is the estimate, the nonce and one eth_sendRawTransactionSync; its receipt costs no round trip', async () => {
  const methods: string[] = []
  let roundTrips = 0
  const transport = recordMethods(
    keepAliveTransport(anvil.rpcUrl, { batch: { maxSize: 2_000 }, onRoundTrip: () => roundTrips++ }),
    methods,
  )
  const { publicClient: viaHttp } = clients()
  const chain = viaHttp.chain
  const account = mnemonicToAccount(DEV_MNEMONIC, { addressIndex: 4 })
  const publicClient = createPublicClient({ chain, transport })
  const relayerClient = createWalletClient({ chain, transport, account })
  const sender = createChainSender({ chain: { chainId: 10, publicClient, relayerClient }, automine: true })
  const to = mnemonicToAccount(DEV_MNEMONIC, { addressIndex: 7 }).address
  const before = await publicClient.getBalance({ address: to })
  methods.length = 0
  roundTrips = 0
  const hash = await sender.send({ to, data: '0x', value: parseEther('0.2') })
  expect(methods.slice(3)).toEqual(['eth_getTransactionCount', 'eth_sendRawTransactionSync'])
  expect(roundTrips).toBe(3)
  const receipt = await sender.waitForReceipt(hash)
  expect(receipt).toMatchObject({ status: 'success', transactionHash: hash })
  expect(typeof receipt.blockNumber).toBe('bigint')
  expect(roundTrips).toBe(3)
  expect(await publicClient.getBalance({ address: to })).toBe(before + parseEther('0.2'))

  // Someone else sends with the relayer's key: the next send is refused for its nonce, resyncs
  // and goes through (the sync call's refusal is the node's word, as a plain send's was).
  await relayerClient.sendTransaction({ to, value: 1n })
  methods.length = 0
  const second = await sender.send({ to, data: '0x', value: 2n })
  expect((await sender.waitForReceipt(second)).status).toBe('success')
  expect(methods.filter((method) => method === 'eth_getTransactionCount')).toHaveLength(1)
  expect(await publicClient.getBalance({ address: to })).toBe(before + parseEther('0.2') + 3n)
})
