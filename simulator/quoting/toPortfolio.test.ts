import { describe, expect, it } from 'vitest'
import { tokensByChain } from '../../contracts/addresses'
import { toPortfolio } from './toPortfolio'
import type { ChainHoldings } from './types'

const usdc = (chainId: number) => tokensByChain[chainId]!.find((t) => t.symbol === 'USDC')!
const holding = (chainId: number, wallet: bigint, locked: bigint) => ({
  token: usdc(chainId),
  wallet,
  permit2Allowance: 0n,
  lockId: 1n,
  locked,
})

describe('toPortfolio', () => {
  it('sums a symbol across chains (locked = Compact lock, unlocked = wallet) and leaves out empty tokens', () => {
    const holdings: ChainHoldings[] = [
      { chainId: 10, baseFee: 1n, tokens: [holding(10, 5n, 7n)] },
      { chainId: 8453, baseFee: 1n, tokens: [holding(8453, 2n, 0n)] },
      { chainId: 42161, baseFee: 1n, tokens: [holding(42161, 0n, 0n)] },
    ]
    expect(toPortfolio(holdings)).toEqual({
      portfolio: [
        {
          tokenName: 'USDC',
          tokenDecimals: 6,
          balance: { locked: '7', unlocked: '7' },
          tokenChainBalance: [
            { chainId: 10, tokenAddress: usdc(10).address, balance: { locked: '7', unlocked: '5' } },
            { chainId: 8453, tokenAddress: usdc(8453).address, balance: { locked: '0', unlocked: '2' } },
          ],
        },
      ],
    })
  })
})
