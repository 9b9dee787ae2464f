import { cpSync, mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, test } from 'vitest'
import { startWebhookInbox } from '../../conformance/runner/webhookReceiver'
import { createEventBus } from '../events/eventBus'
import { createPriceTable } from '../prices/prices'
import { createSystemClock } from '../util/clock'
import { createDepositProcessor } from './createDepositProcessor'
import { verifyWebhookSignature } from './signWebhook'
import { type Envelope, useDepositChains } from './testing/useDepositChains'
import type { DepositChain } from './types'

const fx = useDepositChains()
const { newProcessor } = fx

describe('restart with a state dir', () => {
  test('no event is lost and no deposit is counted twice', async () => {
    const prices = createPriceTable()
    const account = fx.chains.keys.accounts[7]!.address
    const user = fx.chains.keys.accounts[1]!
    const usdc = fx.chains.token(1, 'USDC').address
    await fx.chains.mint(1, usdc, user.address, 10n ** 10n)
    const restartReceiver = await startWebhookInbox()
    await restartReceiver.down()

    const first = newProcessor(prices, fx.dir)
    await first.start()
    await first.setup('key-r', { webhookUrl: restartReceiver.url, webhookSecret: 'restart-secret' })
    await first.register('key-r', { account, targetChainId: 8453 })
    const one = await fx.chains.transfer(1, user, usdc, account, 3_000_000n)
    await first.pollOnce()
    await first.stop()

    // While it is down: one more deposit.
    const two = await fx.chains.transfer(1, user, usdc, account, 4_000_000n)
    const balanceBefore = await fx.chains.balanceOf(8453, fx.chains.token(8453, 'USDC').address, account)

    await restartReceiver.up()
    const second = newProcessor(prices, fx.dir)
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
    expect(await fx.chains.balanceOf(8453, fx.chains.token(8453, 'USDC').address, account)).toBe(
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
    const account = fx.chains.keys.accounts[accountIndex]!.address
    const user = fx.chains.keys.accounts[1]!
    const usdc = fx.chains.token(1, 'USDC').address
    const usdc8453 = fx.chains.token(8453, 'USDC').address
    await fx.chains.mint(1, usdc, user.address, 10n ** 10n)
    const liveDir = mkdtempSync(join(tmpdir(), 'deposits-live-'))
    const crashDir = mkdtempSync(join(tmpdir(), 'deposits-crashed-'))
    const base = fx.chains.chains.find((c) => c.chainId === 8453)!
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
      fx.chains.chains.map((c) => (c.chainId === 8453 ? crashing : c)),
      liveDir,
    )
    await first.start()
    await first.setup('key-crash', { webhookUrl: null })
    await first.register('key-crash', { account, targetChainId: 8453 })
    const before = await fx.chains.balanceOf(8453, usdc8453, account)
    await fx.chains.transfer(1, user, usdc, account, 5_000_000n)
    await first.pollOnce()
    await first.stop()
    expect(crashes).toBe(1)
    const recorded = JSON.parse(readFileSync(join(crashDir, 'deposit-processor.json'), 'utf8')).deposits[0]

    const second = processorOn(fx.chains.chains, crashDir)
    await second.start()
    await second.pollOnce()
    const [deposit] = (await second.listDeposits('key-crash')).deposits
    await second.stop()
    rmSync(liveDir, { recursive: true, force: true })
    rmSync(crashDir, { recursive: true, force: true })
    return {
      deposit: deposit!,
      recorded,
      paid: (await fx.chains.balanceOf(8453, usdc8453, account)) - before,
    }
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
