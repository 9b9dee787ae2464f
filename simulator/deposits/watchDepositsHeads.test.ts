import { afterEach, describe, expect, test } from 'vitest'
import { subscribeNewHeads } from '../../lib/newHeads'
import { createEventBus } from '../events/eventBus'
import { createPriceTable } from '../prices/prices'
import { createSystemClock } from '../util/clock'
import { createDepositProcessor, type DepositProcessor } from './createDepositProcessor'
import { useDepositChains } from './testing/useDepositChains'
import type { DepositChain } from './types'

const fx = useDepositChains()
const { eventsOf } = fx

/** A processor whose chains report new blocks (Anvil's newHeads), polling only every `pollMs`. */
function processorWith(
  watchHeads: (chain: DepositChain, index: number) => DepositChain['watchHeads'],
  pollMs: number,
): DepositProcessor {
  return createDepositProcessor({
    chains: fx.chains.chains.map((chain, index) => ({ ...chain, watchHeads: watchHeads(chain, index) })),
    prices: createPriceTable(),
    clock: createSystemClock(),
    events: createEventBus(),
    pollIntervalMs: pollMs,
    headsPollIntervalMs: pollMs,
    webhooks: { retry: { baseDelayMs: 20, maxDelayMs: 100, timeoutMs: 2_000 } },
  })
}

describe('the deposit watcher woken by new blocks', () => {
  let processor: DepositProcessor | undefined
  afterEach(async () => {
    await processor?.stop()
    processor = undefined
  })

  test('a deposit is bridged as its block is mined, with no poll after the first', async () => {
    const user = fx.chains.keys.accounts[1]!
    const account = fx.chains.keys.accounts[5]!.address
    const usdc1 = fx.chains.token(1, 'USDC').address
    await fx.chains.mint(1, usdc1, user.address, 10n ** 9n)
    const heads: bigint[] = []
    // The poll runs once at start, then not for a minute: only the blocks can wake a pass.
    processor = processorWith(
      (_, index) => (handlers) =>
        subscribeNewHeads(fx.chains.anvils[index]!.rpcUrl, {
          onHead: (n) => {
            heads.push(n)
            handlers.onHead(n)
          },
          onDown: handlers.onDown,
        }),
      60_000,
    )
    await processor.start()
    await processor.setup('key-heads', { webhookUrl: fx.receiver.url })
    await processor.register('key-heads', { account, targetChainId: 8453 })
    // The subscriptions are made in the background (the first loads the ws package): mine a
    // block at each look until one reaches them.
    await expect
      .poll(
        async () => {
          if (heads.length === 0) await fx.chains.mint(1, usdc1, user.address, 1n)
          return heads.length
        },
        { timeout: 5_000, interval: 100 },
      )
      .toBeGreaterThan(0)
    const receipt = await fx.chains.transfer(1, user, usdc1, account, 2_000_000n)
    await fx.receiver.waitFor(() => eventsOf(account).some((e) => e.type === 'bridge-complete'), 10_000)
    const { deposits } = await processor.listDeposits('key-heads', { txHash: receipt.transactionHash })
    expect(deposits.map((d) => d.status)).toEqual(['completed'])
    expect(deposits[0]!.id).toBe(`1:${receipt.transactionHash}:${receipt.logs[0]!.logIndex}`)
  })

  test('a chain whose node refuses the subscription is polled as before', async () => {
    const user = fx.chains.keys.accounts[1]!
    const account = fx.chains.keys.accounts[6]!.address
    const usdc1 = fx.chains.token(1, 'USDC').address
    await fx.chains.mint(1, usdc1, user.address, 10n ** 9n)
    // A port nothing listens on: the subscription rejects, the 50 ms poll finds the deposit.
    processor = processorWith(() => (handlers) => subscribeNewHeads('http://127.0.0.1:1', handlers), 50)
    await processor.start()
    await processor.setup('key-polled', { webhookUrl: fx.receiver.url })
    await processor.register('key-polled', { account, targetChainId: 8453 })
    const receipt = await fx.chains.transfer(1, user, usdc1, account, 2_000_000n)
    await fx.receiver.waitFor(() => eventsOf(account).some((e) => e.type === 'bridge-complete'), 10_000)
    const { deposits } = await processor.listDeposits('key-polled', { txHash: receipt.transactionHash })
    expect(deposits.map((d) => d.status)).toEqual(['completed'])
  })
})
