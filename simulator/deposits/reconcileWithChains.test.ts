import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createDepositStore } from './createDepositStore'
import type { DepositRecord } from './depositRecord'
import { reconcileWithChains } from './reconcileWithChains'
import { startTestChains } from './testing/startTestChains'
import { createTokenDirectory } from './tokenDirectory'

let test: Awaited<ReturnType<typeof startTestChains>>
beforeAll(async () => {
  test = await startTestChains([10, 8453])
}, 60_000)
afterAll(async () => {
  await Promise.all(test?.anvils.map((anvil) => anvil.stop()) ?? [])
})

const MISSING = `0x${'ab'.repeat(32)}` as const

describe('reconcileWithChains (deposits), against chains older than the store', () => {
  it('forgets deposits the chain lacks, pays again payouts it lacks, and moves a cursor ahead of the head back', async () => {
    const usdc10 = test.token(10, 'USDC').address
    const usdc8453 = test.token(8453, 'USDC').address
    const onChain = await test.mint(10, usdc10, test.keys.accounts[0]!.address, 5n)
    const tokens = createTokenDirectory({ 10: test.chains[0]!.tokens, 8453: test.chains[1]!.tokens })
    const store = createDepositStore({ tokens, clock: { nowMs: () => Date.now() } })
    const base = {
      tenantId: 't',
      account: test.keys.accounts[1]!.address,
      chainId: 10,
      token: usdc10,
      symbol: 'USDC',
      amount: '5',
      sender: test.keys.accounts[0]!.address,
      blockNumber: '1',
      logIndex: 0,
      createdAt: '',
      updatedAt: '',
    } satisfies Partial<DepositRecord>
    const target = {
      chainId: 8453,
      token: usdc8453,
      symbol: 'USDC',
      amount: '4',
      grossAmount: '5',
      fees: { gas: '1', bridging: '0' },
      gasSponsored: false,
      bridgingSponsored: false,
    }
    store.deposits.set('gone', {
      ...base,
      seq: 1,
      id: 'gone',
      transactionHash: MISSING,
      status: 'processing',
    })
    store.deposits.set('repay', {
      ...base,
      seq: 2,
      id: 'repay',
      transactionHash: onChain.transactionHash,
      status: 'completed',
      target,
      bridgeTransactionHash: MISSING,
    })
    store.deposits.set('kept', {
      ...base,
      seq: 3,
      id: 'kept',
      transactionHash: onChain.transactionHash,
      status: 'processing',
    })
    const head = await test.chains[0]!.publicClient.getBlockNumber()
    store.cursors.set(10, head + 50n)
    store.cursors.set(8453, 0n)
    const lines: string[] = []

    const result = await reconcileWithChains(
      { chains: new Map(test.chains.map((chain) => [chain.chainId, chain])), store },
      { log: (line) => lines.push(line) },
    )

    expect(result).toEqual({ forgotten: ['gone'], repaid: ['repay'], cursorsMoved: [10] })
    expect([...store.deposits.keys()].sort()).toEqual(['kept', 'repay'])
    expect(store.deposits.get('repay')).toMatchObject({ status: 'processing' })
    expect(store.deposits.get('repay')?.bridgeTransactionHash).toBeUndefined()
    expect(store.cursors.get(10)).toBe(head)
    expect(store.cursors.get(8453)).toBe(0n)
    expect(lines).toHaveLength(3)
  })
})
