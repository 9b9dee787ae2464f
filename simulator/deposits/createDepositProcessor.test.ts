import { parseEther } from 'viem'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { createPriceTable } from '../prices/prices'
import type { DepositProcessor } from './createDepositProcessor'
import { verifyWebhookSignature } from './signWebhook'
import { type Envelope, useDepositChains } from './testing/useDepositChains'

const fx = useDepositChains()
const { eventsOf, newProcessor } = fx

describe('the deposit processor on real chains', () => {
  const prices = createPriceTable()
  let processor: DepositProcessor
  const user = () => fx.chains.keys.accounts[1]!
  const usdc1 = () => fx.chains.token(1, 'USDC').address
  const usdt1 = () => fx.chains.token(1, 'USDT').address
  const usdc8453 = () => fx.chains.token(8453, 'USDC').address

  beforeAll(async () => {
    processor = newProcessor(prices)
    await processor.start()
    await fx.chains.mint(1, usdc1(), user().address, 10n ** 12n)
    await fx.chains.mint(1, usdt1(), user().address, 10n ** 12n)
  })
  afterAll(() => processor.stop())

  test('an accepted deposit arrives on the target chain, with deposit-received, bridge-started, bridge-complete', async () => {
    const account = fx.chains.keys.accounts[2]!.address
    await processor.setup('key-a', { webhookUrl: fx.receiver.url, webhookSecret: 'secret-a' })
    await processor.register('key-a', { account, targetChainId: 8453 })
    const before = await fx.chains.balanceOf(8453, usdc8453(), account)
    const receipt = await fx.chains.transfer(1, user(), usdc1(), account, 5_000_000n)
    await processor.pollOnce()

    const { deposits } = await processor.listDeposits('key-a', { txHash: receipt.transactionHash })
    expect(deposits).toHaveLength(1)
    const deposit = deposits[0]!
    expect(deposit).toMatchObject({
      status: 'completed',
      chainId: 1,
      amount: '5000000',
      token: usdc1(),
      sender: user().address,
    })
    expect(deposit.id).toBe(`1:${receipt.transactionHash}:${receipt.logs[0]!.logIndex}`)
    // No sponsorship: the fees are deducted, and what the account got is exactly the payout.
    const target = deposit.target!
    expect(BigInt(target.fees.bridging)).toBe(5_000n)
    expect(BigInt(target.fees.gas)).toBeGreaterThan(0n)
    expect(BigInt(target.amount)).toBe(5_000_000n - BigInt(target.fees.bridging) - BigInt(target.fees.gas))
    expect(await fx.chains.balanceOf(8453, usdc8453(), account)).toBe(before + BigInt(target.amount))

    await fx.receiver.waitFor(() => eventsOf(account).length === 3)
    expect(eventsOf(account).map((e) => e.type)).toEqual([
      'deposit-received',
      'bridge-started',
      'bridge-complete',
    ])
    const complete = eventsOf(account)[2]!
    expect(complete.data.target).toMatchObject({
      chain: 'eip155:8453',
      token: usdc8453(),
      amount: target.amount,
    })
    expect(complete.data.target.transactionHash).toBe(deposit.bridgeTransactionHash)
    for (const hit of fx.receiver.received.filter((h) => (h.body as Envelope).data.account === account))
      expect(
        verifyWebhookSignature('secret-a', hit.rawBody, hit.headers['x-webhook-signature'] as string),
      ).toBe(true)
  })

  test('sponsored gas and bridging: the account receives the whole amount; native ether is bridged too', async () => {
    const account = fx.chains.keys.accounts[3]!.address
    await processor.setup('key-a', { sponsorship: { 'eip155:1': { gas: 'all', bridging: 'all' } } })
    await processor.register('key-a', { account, targetChainId: 8453 })
    const usdcBefore = await fx.chains.balanceOf(8453, usdc8453(), account)
    const ethBefore = await fx.chains.chains[1]!.publicClient.getBalance({ address: account })
    await fx.chains.transfer(1, user(), usdc1(), account, 7_000_000n)
    const native = await fx.chains.sendEther(1, user(), account, parseEther('0.5'))
    await processor.pollOnce()
    expect(await fx.chains.balanceOf(8453, usdc8453(), account)).toBe(usdcBefore + 7_000_000n)
    expect(await fx.chains.chains[1]!.publicClient.getBalance({ address: account })).toBe(
      ethBefore + parseEther('0.5'),
    )
    const nativeDeposit = await processor.getDeposit('key-a', `1:${native.transactionHash}:native`)
    expect(nativeDeposit).toMatchObject({
      status: 'completed',
      token: '0x0000000000000000000000000000000000000000',
    })
    await processor.setup('key-a', { sponsorship: {} })
  })

  test('TOKEN-3: a token not on the whitelist of its chain is rejected, stays where it is, and is reported', async () => {
    const account = fx.chains.keys.accounts[4]!.address
    await processor.setup('key-b', {
      webhookUrl: fx.receiver.url,
      depositWhitelist: { 'eip155:1': [{ token: usdc1() }] },
    })
    await processor.register('key-b', { account, targetChainId: 8453, targetToken: 'USDC' })
    const receipt = await fx.chains.transfer(1, user(), usdt1(), account, 1_000_000n)
    await processor.pollOnce()
    const [deposit] = (await processor.listDeposits('key-b', { txHash: receipt.transactionHash })).deposits
    expect(deposit).toMatchObject({ status: 'rejected', errorCode: 'TOKEN-3' })
    expect(await fx.chains.balanceOf(1, usdt1(), account)).toBe(1_000_000n)
    await fx.receiver.waitFor(() => eventsOf(account).some((e) => e.type === 'bridge-failed'))
    const failed = eventsOf(account).find((e) => e.type === 'bridge-failed')!
    expect(failed.data).toMatchObject({
      errorCode: 'TOKEN-3',
      account,
      deposit: {
        transactionHash: receipt.transactionHash,
        chain: 'eip155:1',
        token: usdt1(),
        amount: '1000000',
        sender: user().address,
      },
    })
    // No secret configured: no signature header.
    const hit = fx.receiver.received.find((h) => (h.body as Envelope).eventId === failed.eventId)!
    expect(hit.headers['x-webhook-signature']).toBeUndefined()
  })

  test('BALANCE-3: minAmount and maxAmount are inclusive', async () => {
    const account = fx.chains.keys.accounts[5]!.address
    await processor.setup('key-c', {
      webhookUrl: fx.receiver.url,
      depositWhitelist: { 'eip155:1': [{ token: usdc1(), minAmount: '1000000', maxAmount: '2000000' }] },
      sponsorship: { 'eip155:1': { gas: 'all', bridging: 'all' } },
    })
    await processor.register('key-c', { account, targetChainId: 8453 })
    const amounts = [999_999n, 1_000_000n, 2_000_000n, 2_000_001n]
    const hashes = []
    for (const amount of amounts)
      hashes.push((await fx.chains.transfer(1, user(), usdc1(), account, amount)).transactionHash)
    await processor.pollOnce()
    const results = []
    for (const hash of hashes) {
      const [deposit] = (await processor.listDeposits('key-c', { txHash: hash })).deposits
      results.push([deposit!.amount, deposit!.status, deposit!.errorCode ?? null])
    }
    expect(results).toEqual([
      ['999999', 'rejected', 'BALANCE-3'],
      ['1000000', 'completed', null],
      ['2000000', 'completed', null],
      ['2000001', 'rejected', 'BALANCE-3'],
    ])
    await fx.receiver.waitFor(() => eventsOf(account).filter((e) => e.type === 'bridge-failed').length === 2)
    // Filters and paging.
    const rejected = await processor.listDeposits('key-c', { status: 'rejected' })
    expect(rejected.deposits.map((d) => d.amount)).toEqual(['2000001', '999999'])
    const page1 = await processor.listDeposits('key-c', { account, limit: 3 })
    const page2 = await processor.listDeposits('key-c', { account, limit: 3, cursor: page1.nextCursor! })
    expect([...page1.deposits, ...page2.deposits].map((d) => d.amount)).toEqual([
      '2000001',
      '2000000',
      '1000000',
      '999999',
    ])
    expect(page2.nextCursor).toBeNull()
  })

  test('BRIDGE-5: a stablecoin bridge is rejected once a price change moves it past maxPriceDeviationBps', async () => {
    const account = fx.chains.keys.accounts[6]!.address
    await processor.setup('key-d', {
      webhookUrl: fx.receiver.url,
      sponsorship: { 'eip155:1': { gas: 'all', bridging: 'all' } },
    })
    await processor.register('key-d', { account, targetChainId: 8453, targetToken: 'USDC' })
    await prices.setPrices({ USDT: 0.98 })
    const atLimit = await fx.chains.transfer(1, user(), usdt1(), account, 1_000_000n)
    await processor.pollOnce()
    await prices.setPrices({ USDT: 0.97 })
    const past = await fx.chains.transfer(1, user(), usdt1(), account, 1_000_000n)
    await processor.pollOnce()
    await processor.setup('key-d', { maxPriceDeviationBps: 500 })
    const raised = await fx.chains.transfer(1, user(), usdt1(), account, 1_000_000n)
    await processor.pollOnce()
    await prices.setPrices({ USDT: 1 })
    const status = async (hash: string) =>
      (await processor.listDeposits('key-d', { txHash: hash })).deposits[0]
    expect(await status(atLimit.transactionHash)).toMatchObject({
      status: 'completed',
      target: { amount: '980000' },
    })
    expect(await status(past.transactionHash)).toMatchObject({ status: 'rejected', errorCode: 'BRIDGE-5' })
    expect(await status(raised.transactionHash)).toMatchObject({
      status: 'completed',
      target: { amount: '970000' },
    })
    await fx.receiver.waitFor(() => eventsOf(account).some((e) => e.type === 'bridge-failed'))
    expect(eventsOf(account).find((e) => e.type === 'bridge-failed')!.data.errorCode).toBe('BRIDGE-5')
  })

  test('tenants never see each other: configuration, deposits, events', async () => {
    await processor.setup('key-e', { webhookUrl: 'http://127.0.0.1:1/e', maxPriceDeviationBps: 50 })
    expect((await processor.getSetup('key-f')).webhookUrl).toBeNull()
    expect((await processor.getSetup('key-f')).maxPriceDeviationBps).toBe(200)
    expect((await processor.getSetup('key-e')).maxPriceDeviationBps).toBe(50)
    const aDeposits = (await processor.listDeposits('key-a')).deposits
    expect(aDeposits.length).toBeGreaterThan(0)
    expect((await processor.listDeposits('key-e')).deposits).toEqual([])
    expect(await processor.getDeposit('key-e', aDeposits[0]!.id)).toBeUndefined()
    const aEvents = (await processor.listWebhookEvents('key-a')).events
    expect(aEvents.length).toBeGreaterThan(0)
    expect((await processor.listWebhookEvents('key-e')).events).toEqual([])
    expect(await processor.resendWebhookEvent('key-e', aEvents[0]!.eventId)).toBeUndefined()
    await expect(
      processor.register('key-e', { account: fx.chains.keys.accounts[2]!.address, targetChainId: 1 }),
    ).rejects.toThrowErrorMatchingInlineSnapshot(`
      [DepositProcessor.AccountTakenError: Account 0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC is already registered by another API key.
      Docs: docs/deposit-processor.md]
    `)
  })

  test('resend delivers an event again with the same eventId and body', async () => {
    const [event] = (await processor.listWebhookEvents('key-a', { limit: 1 })).events
    const count = fx.receiver.received.length
    const resent = await processor.resendWebhookEvent('key-a', event!.eventId)
    expect(resent!.attempts.length).toBe(event!.attempts.length + 1)
    expect(resent!.attempts.at(-1)).toMatchObject({ statusCode: 200, url: fx.receiver.url })
    const again = () =>
      fx.receiver.received.slice(count).filter((hit) => (hit.body as Envelope).eventId === event!.eventId)
    await fx.receiver.waitFor(() => again().length === 1)
    expect(again()[0]!.rawBody.toString()).toBe(JSON.stringify(event!.payload))
  })

  test('a chain reverted under the watcher (evm_revert): a deposit in the blocks mined after it is still seen', async () => {
    const account = fx.chains.keys.accounts[8]!.address
    await processor.register('key-a', { account, targetChainId: 8453 })
    const client = fx.chains.chains.find((chain) => chain.chainId === 1)!.publicClient
    const id = await client.request({ method: 'evm_snapshot' as never } as never)
    // The watcher scans past blocks the revert then takes away.
    for (let i = 0; i < 3; i++) await fx.chains.mint(1, usdc1(), user().address, 1n)
    await processor.pollOnce()
    await client.request({ method: 'evm_revert', params: [id] } as never)
    const receipt = await fx.chains.transfer(1, user(), usdc1(), account, 2_000_000n)
    await processor.pollOnce()
    const { deposits } = await processor.listDeposits('key-a', { txHash: receipt.transactionHash })
    expect(deposits).toHaveLength(1)
    expect(deposits[0]).toMatchObject({ status: 'completed', chainId: 1, amount: '2000000' })
  })
})
