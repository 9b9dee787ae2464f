import { cpSync, mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { type Address, parseEther } from 'viem'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { startWebhookInbox, type WebhookInboxReceiver } from '../../conformance/runner/webhookReceiver'
import { createEventBus } from '../events/eventBus'
import { createPriceTable, type PriceTable } from '../prices/prices'
import { createSystemClock } from '../util/clock'
import { createDepositProcessor, type DepositProcessor } from './createDepositProcessor'
import { verifyWebhookSignature } from './signWebhook'
import { startTestChains, type TestChains } from './testing/startTestChains'
import type { DepositChain } from './types'

let chains: TestChains
let receiver: WebhookInboxReceiver
let dir: string

beforeAll(async () => {
  chains = await startTestChains([1, 8453])
  receiver = await startWebhookInbox()
  dir = mkdtempSync(join(tmpdir(), 'deposits-'))
})
afterAll(async () => {
  await receiver?.close()
  await chains?.stop()
  rmSync(dir, { recursive: true, force: true })
})

type Envelope = { type: string; eventId: string; data: Record<string, any> }
const eventsOf = (account: Address) =>
  receiver.received
    .map((hit) => hit.body as Envelope)
    .filter((body) => body.data.account?.toLowerCase() === account.toLowerCase())

function newProcessor(prices: PriceTable, stateDir?: string): DepositProcessor {
  return createDepositProcessor({
    chains: chains.chains,
    prices,
    clock: createSystemClock(),
    events: createEventBus(),
    stateDir,
    pollIntervalMs: null,
    webhooks: { retry: { baseDelayMs: 20, maxDelayMs: 100, timeoutMs: 2_000 } },
  })
}

describe('the deposit processor on real chains', () => {
  const prices = createPriceTable()
  let processor: DepositProcessor
  const user = () => chains.keys.accounts[1]!
  const usdc1 = () => chains.token(1, 'USDC').address
  const usdt1 = () => chains.token(1, 'USDT').address
  const usdc8453 = () => chains.token(8453, 'USDC').address

  beforeAll(async () => {
    processor = newProcessor(prices)
    await processor.start()
    await chains.mint(1, usdc1(), user().address, 10n ** 12n)
    await chains.mint(1, usdt1(), user().address, 10n ** 12n)
  })
  afterAll(() => processor.stop())

  test('an accepted deposit arrives on the target chain, with deposit-received, bridge-started, bridge-complete', async () => {
    const account = chains.keys.accounts[2]!.address
    await processor.setup('key-a', { webhookUrl: receiver.url, webhookSecret: 'secret-a' })
    await processor.register('key-a', { account, targetChainId: 8453 })
    const before = await chains.balanceOf(8453, usdc8453(), account)
    const receipt = await chains.transfer(1, user(), usdc1(), account, 5_000_000n)
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
    expect(await chains.balanceOf(8453, usdc8453(), account)).toBe(before + BigInt(target.amount))

    await receiver.waitFor(() => eventsOf(account).length === 3)
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
    for (const hit of receiver.received.filter((h) => (h.body as Envelope).data.account === account))
      expect(
        verifyWebhookSignature('secret-a', hit.rawBody, hit.headers['x-webhook-signature'] as string),
      ).toBe(true)
  })

  test('sponsored gas and bridging: the account receives the whole amount; native ether is bridged too', async () => {
    const account = chains.keys.accounts[3]!.address
    await processor.setup('key-a', { sponsorship: { 'eip155:1': { gas: 'all', bridging: 'all' } } })
    await processor.register('key-a', { account, targetChainId: 8453 })
    const usdcBefore = await chains.balanceOf(8453, usdc8453(), account)
    const ethBefore = await chains.chains[1]!.publicClient.getBalance({ address: account })
    await chains.transfer(1, user(), usdc1(), account, 7_000_000n)
    const native = await chains.sendEther(1, user(), account, parseEther('0.5'))
    await processor.pollOnce()
    expect(await chains.balanceOf(8453, usdc8453(), account)).toBe(usdcBefore + 7_000_000n)
    expect(await chains.chains[1]!.publicClient.getBalance({ address: account })).toBe(
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
    const account = chains.keys.accounts[4]!.address
    await processor.setup('key-b', {
      webhookUrl: receiver.url,
      depositWhitelist: { 'eip155:1': [{ token: usdc1() }] },
    })
    await processor.register('key-b', { account, targetChainId: 8453, targetToken: 'USDC' })
    const receipt = await chains.transfer(1, user(), usdt1(), account, 1_000_000n)
    await processor.pollOnce()
    const [deposit] = (await processor.listDeposits('key-b', { txHash: receipt.transactionHash })).deposits
    expect(deposit).toMatchObject({ status: 'rejected', errorCode: 'TOKEN-3' })
    expect(await chains.balanceOf(1, usdt1(), account)).toBe(1_000_000n)
    await receiver.waitFor(() => eventsOf(account).some((e) => e.type === 'bridge-failed'))
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
    const hit = receiver.received.find((h) => (h.body as Envelope).eventId === failed.eventId)!
    expect(hit.headers['x-webhook-signature']).toBeUndefined()
  })

  test('BALANCE-3: minAmount and maxAmount are inclusive', async () => {
    const account = chains.keys.accounts[5]!.address
    await processor.setup('key-c', {
      webhookUrl: receiver.url,
      depositWhitelist: { 'eip155:1': [{ token: usdc1(), minAmount: '1000000', maxAmount: '2000000' }] },
      sponsorship: { 'eip155:1': { gas: 'all', bridging: 'all' } },
    })
    await processor.register('key-c', { account, targetChainId: 8453 })
    const amounts = [999_999n, 1_000_000n, 2_000_000n, 2_000_001n]
    const hashes = []
    for (const amount of amounts)
      hashes.push((await chains.transfer(1, user(), usdc1(), account, amount)).transactionHash)
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
    await receiver.waitFor(() => eventsOf(account).filter((e) => e.type === 'bridge-failed').length === 2)
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
    const account = chains.keys.accounts[6]!.address
    await processor.setup('key-d', {
      webhookUrl: receiver.url,
      sponsorship: { 'eip155:1': { gas: 'all', bridging: 'all' } },
    })
    await processor.register('key-d', { account, targetChainId: 8453, targetToken: 'USDC' })
    await prices.setPrices({ USDT: 0.98 })
    const atLimit = await chains.transfer(1, user(), usdt1(), account, 1_000_000n)
    await processor.pollOnce()
    await prices.setPrices({ USDT: 0.97 })
    const past = await chains.transfer(1, user(), usdt1(), account, 1_000_000n)
    await processor.pollOnce()
    await processor.setup('key-d', { maxPriceDeviationBps: 500 })
    const raised = await chains.transfer(1, user(), usdt1(), account, 1_000_000n)
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
    await receiver.waitFor(() => eventsOf(account).some((e) => e.type === 'bridge-failed'))
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
      processor.register('key-e', { account: chains.keys.accounts[2]!.address, targetChainId: 1 }),
    ).rejects.toThrowErrorMatchingInlineSnapshot(`
      [DepositProcessor.AccountTakenError: Account 0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC is already registered by another API key.
      Docs: docs/deposit-processor.md]
    `)
  })

  test('resend delivers an event again with the same eventId and body', async () => {
    const [event] = (await processor.listWebhookEvents('key-a', { limit: 1 })).events
    const count = receiver.received.length
    const resent = await processor.resendWebhookEvent('key-a', event!.eventId)
    expect(resent!.attempts.length).toBe(event!.attempts.length + 1)
    expect(resent!.attempts.at(-1)).toMatchObject({ statusCode: 200, url: receiver.url })
    const again = () =>
      receiver.received.slice(count).filter((hit) => (hit.body as Envelope).eventId === event!.eventId)
    await receiver.waitFor(() => again().length === 1)
    expect(again()[0]!.rawBody.toString()).toBe(JSON.stringify(event!.payload))
  })

  test('a chain reverted under the watcher (evm_revert): a deposit in the blocks mined after it is still seen', async () => {
    const account = chains.keys.accounts[8]!.address
    await processor.register('key-a', { account, targetChainId: 8453 })
    const client = chains.chains.find((chain) => chain.chainId === 1)!.publicClient
    const id = await client.request({ method: 'evm_snapshot' as never } as never)
    // The watcher scans past blocks the revert then takes away.
    for (let i = 0; i < 3; i++) await chains.mint(1, usdc1(), user().address, 1n)
    await processor.pollOnce()
    await client.request({ method: 'evm_revert', params: [id] } as never)
    const receipt = await chains.transfer(1, user(), usdc1(), account, 2_000_000n)
    await processor.pollOnce()
    const { deposits } = await processor.listDeposits('key-a', { txHash: receipt.transactionHash })
    expect(deposits).toHaveLength(1)
    expect(deposits[0]).toMatchObject({ status: 'completed', chainId: 1, amount: '2000000' })
  })
})

describe('restart with a state dir', () => {
  test('no event is lost and no deposit is counted twice', async () => {
    const prices = createPriceTable()
    const account = chains.keys.accounts[7]!.address
    const user = chains.keys.accounts[1]!
    const usdc = chains.token(1, 'USDC').address
    await chains.mint(1, usdc, user.address, 10n ** 10n)
    const restartReceiver = await startWebhookInbox()
    await restartReceiver.down()

    const first = newProcessor(prices, dir)
    await first.start()
    await first.setup('key-r', { webhookUrl: restartReceiver.url, webhookSecret: 'restart-secret' })
    await first.register('key-r', { account, targetChainId: 8453 })
    const one = await chains.transfer(1, user, usdc, account, 3_000_000n)
    await first.pollOnce()
    await first.stop()

    // While it is down: one more deposit.
    const two = await chains.transfer(1, user, usdc, account, 4_000_000n)
    const balanceBefore = await chains.balanceOf(8453, chains.token(8453, 'USDC').address, account)

    await restartReceiver.up()
    const second = newProcessor(prices, dir)
    await second.start()
    await second.pollOnce()
    await second.pollOnce()
    const deposits = (await second.listDeposits('key-r')).deposits
    expect(deposits.map((d) => [d.transactionHash, d.status])).toEqual([
      [two.transactionHash, 'completed'],
      [one.transactionHash, 'completed'],
    ])
    // Only the second deposit was paid out after the restart: the first is not paid twice.
    const paidAfter = BigInt(deposits[0]!.target!.amount)
    expect(await chains.balanceOf(8453, chains.token(8453, 'USDC').address, account)).toBe(
      balanceBefore + paidAfter,
    )
    // Every event of both deposits arrives, each once, signed.
    await restartReceiver.waitFor(() => restartReceiver.received.length >= 6)
    await new Promise((resolve) => setTimeout(resolve, 200))
    const ids = restartReceiver.received.map((hit) => (hit.body as Envelope).eventId)
    expect(ids.length).toBe(6)
    expect(new Set(ids).size).toBe(6)
    for (const hit of restartReceiver.received)
      expect(
        verifyWebhookSignature('restart-secret', hit.rawBody, hit.headers['x-webhook-signature'] as string),
      ).toBe(true)
    const firstRunEvents = (await second.listWebhookEvents('key-r')).events.filter(
      (e) => (e.payload as Envelope).data.deposit.transactionHash === one.transactionHash,
    )
    expect(firstRunEvents.map((e) => e.type).sort()).toEqual([
      'bridge-complete',
      'bridge-started',
      'deposit-received',
    ])
    for (const event of firstRunEvents) expect(event.attempts[0]!.error).toBe('ECONNREFUSED')
    await second.stop()
    await restartReceiver.close()
  })

  /**
   * A payout interrupted by a crash: the first processor's sender on 8453 copies the state dir at
   * `crashAt` (what a crash there leaves on disk); a second processor starts from that copy.
   * 'signed': the payout is signed and recorded, and the process dies before broadcasting it.
   * 'broadcast': the payout is broadcast (and mined), and the process dies before hearing back.
   */
  async function payoutInterruptedAt(crashAt: 'signed' | 'broadcast', accountIndex: number) {
    const prices = createPriceTable()
    const account = chains.keys.accounts[accountIndex]!.address
    const user = chains.keys.accounts[1]!
    const usdc = chains.token(1, 'USDC').address
    const usdc8453 = chains.token(8453, 'USDC').address
    await chains.mint(1, usdc, user.address, 10n ** 10n)
    const liveDir = mkdtempSync(join(tmpdir(), 'deposits-live-'))
    const crashDir = mkdtempSync(join(tmpdir(), 'deposits-crashed-'))
    const base = chains.chains.find((c) => c.chainId === 8453)!
    let crashes = 0
    const crash = () => {
      cpSync(liveDir, crashDir, { recursive: true })
      crashes++
    }
    const crashing: DepositChain = {
      ...base,
      send: async (tx, options) => {
        if (crashAt === 'broadcast') {
          const hash = await base.send(tx, options)
          crash()
          return hash
        }
        return base.send(tx, {
          beforeBroadcast: async (signed) => {
            await options?.beforeBroadcast?.(signed)
            crash()
            throw new Error('simulated crash: the process died before broadcasting')
          },
        })
      },
    }
    const processorOn = (chainList: DepositChain[], stateDir: string) =>
      createDepositProcessor({
        chains: chainList,
        prices,
        clock: createSystemClock(),
        events: createEventBus(),
        stateDir,
        pollIntervalMs: null,
      })
    const first = processorOn(
      chains.chains.map((c) => (c.chainId === 8453 ? crashing : c)),
      liveDir,
    )
    await first.start()
    await first.setup('key-crash', { webhookUrl: null })
    await first.register('key-crash', { account, targetChainId: 8453 })
    const before = await chains.balanceOf(8453, usdc8453, account)
    await chains.transfer(1, user, usdc, account, 5_000_000n)
    await first.pollOnce()
    await first.stop()
    expect(crashes).toBe(1)
    const recorded = JSON.parse(readFileSync(join(crashDir, 'deposit-processor.json'), 'utf8')).deposits[0]

    const second = processorOn(chains.chains, crashDir)
    await second.start()
    await second.pollOnce()
    const [deposit] = (await second.listDeposits('key-crash')).deposits
    await second.stop()
    rmSync(liveDir, { recursive: true, force: true })
    rmSync(crashDir, { recursive: true, force: true })
    return { deposit: deposit!, recorded, paid: (await chains.balanceOf(8453, usdc8453, account)) - before }
  }

  test('a crash after the payout was broadcast, before it was recorded as sent: the restart finds it, pays nothing more', async () => {
    const { deposit, recorded, paid } = await payoutInterruptedAt('broadcast', 8)
    expect(deposit.status).toBe('completed')
    // Recorded before it left: the hash on disk is the payout's, and the account was paid once.
    expect(recorded.bridgeTransactionHash).toBe(deposit.bridgeTransactionHash)
    expect(paid).toBe(BigInt(deposit.target!.amount))
    expect(paid).toBeGreaterThan(0n)
    expect('bridgeRawTransaction' in deposit).toBe(false)
  })

  test('a crash after the payout was signed and recorded, before it was broadcast: the restart broadcasts that same transaction, once', async () => {
    const { deposit, recorded, paid } = await payoutInterruptedAt('signed', 9)
    expect(deposit.status).toBe('completed')
    expect(recorded.bridgeRawTransaction).toMatch(/^0x/)
    expect(deposit.bridgeTransactionHash).toBe(recorded.bridgeTransactionHash)
    expect(paid).toBe(BigInt(deposit.target!.amount))
  })
})
