import { describe, expect, test } from 'vitest'
import { type TokenInfo, tokensByChain } from '../../contracts/addresses'
import { toLockId } from '../../lib/lockTag'
import { DEVNET_LOCK_TAG } from '../devnet/funding'
import { planFunding } from './planFunding'
import { amountFor, NATIVE_ETH, sourceKind, swappedFor, valueCovered } from './swaps'
import { usdc } from './testing/routeRequests'
import type { ChainHoldings, TokenHolding } from './types'

/** Swaps and native ETH, the pure parts: conversion arithmetic and funding plans (no chain). */

describe('conversion arithmetic (pure)', () => {
  test('values round down, amounts round up, and an amount never exceeds what it was valued from', () => {
    const weth = { decimals: 18, price: 3000 }
    const usd = { decimals: 6, price: 1 }
    expect(valueCovered(10n ** 18n, 'SWAP', weth, usd)).toBe(3000n * 10n ** 6n)
    expect(amountFor(1n, 'SWAP', weth, usd)).toBe(333_333_334n) // 1e-6 USD of WETH: 333,333,333.3 wei, rounded up
    for (const raw of [1n, 333_333_333n, 10n ** 18n + 7n, 123_456_789_012_345n]) {
      const value = valueCovered(raw, 'SWAP', weth, usd)
      expect(amountFor(value, 'SWAP', weth, usd)).toBeLessThanOrEqual(raw)
      // The user always gives at least the value at the table's prices.
      expect(amountFor(value, 'SWAP', weth, usd) * 3000n * 10n ** 6n).toBeGreaterThanOrEqual(
        value * 10n ** 18n,
      )
    }
    expect(valueCovered(5n, 'WRAP', weth, usd)).toBe(5n)
    expect(sourceKind('WETH', 'ETH')).toBe('WRAP')
    expect(sourceKind('usdc', 'USDC')).toBe('SAME')
    expect(sourceKind('USDT', 'USDC')).toBe('SWAP')
  })

  test('the swapped value pays for itself: s = left + ceil(s * bps / 10000)', () => {
    for (const left of [1n, 999n, 100_000_000n, 123_456_789n]) {
      const s = swappedFor(left, 10n)
      expect(s).toBe(left + (s * 10n + 9_999n) / 10_000n)
    }
    expect(swappedFor(0n, 10n)).toBe(0n)
    expect(swappedFor(500n, 0n)).toBe(500n)
  })
})

describe('planFunding with swaps (pure)', () => {
  const info = (symbol: string) =>
    symbol === 'ETH' ? NATIVE_ETH : (tokensByChain[10]?.find((t) => t.symbol === symbol) as TokenInfo)
  const holding = (symbol: string, locked: bigint, wallet = 0n, permit2Allowance = 0n): TokenHolding => ({
    token: info(symbol),
    wallet,
    permit2Allowance,
    lockId: toLockId(DEVNET_LOCK_TAG, info(symbol).address),
    locked,
  })
  const prices: Record<string, number> = { USDC: 1, WETH: 3000, ETH: 3000 }
  const swap = { userBps: 10n, price: (symbol: string) => prices[symbol] }
  const usdcOut = { symbol: 'USDC', token: tokensByChain[8453]?.[0] as TokenInfo, amount: usdc(70) }

  test('same token first, then a swap; or swaps first, then the same token for what they cannot cover', () => {
    const holdings: ChainHoldings[] = [
      { chainId: 10, baseFee: 0n, tokens: [holding('USDC', usdc(50)), holding('WETH', 10n ** 16n)] },
    ]
    const plans = planFunding({
      holdings,
      requests: [usdcOut],
      destinationChainId: 8453,
      method: 'COMPACT',
      needFor: () => [usdc(70)],
      swap,
    })
    const shape = plans.map((p) => p.allocations[0]?.sources.map((s) => [s.symbol, s.amount, s.value]))
    expect(shape).toEqual([
      [
        ['USDC', usdc(50), usdc(50)],
        ['WETH', 6_673_340_333_333_334n, 20_020_021n], // s = 20e6 + ceil(s * 10 / 10000)
      ],
      [
        ['USDC', 40_030_000n, 40_030_000n], // the rest: 70 + 0.03 (swap fee) - 30
        ['WETH', 10n ** 16n, usdc(30)], // every WETH (30 USD)
      ],
    ])
    expect(plans.map((p) => p.allocations[0]?.swapped)).toEqual([20_020_021n, usdc(30)])
    // Without swap pricing (or with WETH excluded) nothing works: 50 USDC < 70.
    expect(
      planFunding({
        holdings,
        requests: [usdcOut],
        destinationChainId: 8453,
        method: 'COMPACT',
        needFor: () => [usdc(70)],
      }),
    ).toEqual([])
    expect(
      planFunding({
        holdings,
        requests: [usdcOut],
        destinationChainId: 8453,
        method: 'COMPACT',
        needFor: () => [usdc(70)],
        swap,
        access: { exclude: { tokens: ['WETH'] } },
      }),
    ).toEqual([])
  })

  test('Permit2 never moves native ETH, even with a wallet balance', () => {
    const holdings: ChainHoldings[] = [
      {
        chainId: 10,
        baseFee: 0n,
        tokens: [
          holding('ETH', 10n ** 18n, 10n ** 20n, 10n ** 20n),
          holding('WETH', 0n, 10n ** 18n, 10n ** 18n),
        ],
      },
    ]
    const ethOut = { symbol: 'ETH', token: NATIVE_ETH, amount: 5n * 10n ** 17n }
    const plan = (method: 'COMPACT' | 'PERMIT2') =>
      planFunding({
        holdings,
        requests: [ethOut],
        destinationChainId: 8453,
        method,
        needFor: () => [ethOut.amount],
        swap,
      })
    expect(plan('PERMIT2').map((p) => p.allocations[0]?.sources.map((s) => [s.symbol, s.kind]))).toEqual([
      [['WETH', 'WRAP']],
    ])
    expect(plan('COMPACT').map((p) => p.allocations[0]?.sources.map((s) => [s.symbol, s.kind]))).toEqual([
      [['ETH', 'SAME']],
    ])
  })
})
