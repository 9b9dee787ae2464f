import { expect, test } from 'vitest'
import { type TokenInfo, tokensByChain } from '../../contracts/addresses'
import { toLockId } from '../../lib/lockTag'
import { DEVNET_LOCK_TAG } from '../devnet/funding'
import { partialPlan } from './partialPlan'
import { shortfall } from './shortfall'
import { usdc } from './testing/routeRequests'
import type { ChainHoldings, NeedFor, PlanRequest, TokenHolding } from './types'

/** What is missing when no plan works (pure: holdings and fees given, no chain). */

const info = (chainId: number, symbol: string) =>
  tokensByChain[chainId]?.find((t) => t.symbol === symbol) as TokenInfo
const holding = (chainId: number, symbol: string, wallet: bigint): TokenHolding => ({
  token: info(chainId, symbol),
  wallet,
  permit2Allowance: wallet,
  lockId: toLockId(DEVNET_LOCK_TAG, info(chainId, symbol).address),
  locked: 0n,
})
/** An account with 5 USDC on Optimism, nothing on the other chains of a four-chain devnet. */
const holdings: ChainHoldings[] = [1, 10, 8453, 42161].map((chainId) => ({
  chainId,
  baseFee: 0n,
  tokens: [holding(chainId, 'USDC', chainId === 10 ? usdc(5) : 0n), holding(chainId, 'WETH', 0n)],
}))
const requests: PlanRequest[] = [
  { symbol: 'USDC', token: info(8453, 'USDC'), amount: usdc(1) },
  { symbol: 'WETH', token: info(8453, 'WETH'), amount: 5n * 10n ** 15n },
]
/** Gas charged to the first request: 0.1 USDC per origin chain, 6 USDC on Ethereum. */
const needFor: NeedFor = (chainIds) => [
  usdc(1) + chainIds.reduce((sum, chainId) => sum + (chainId === 1 ? usdc(6) : usdc(1) / 10n), 0n),
  5n * 10n ** 15n,
]

test("a request covered from one chain is not short by the gas of chains it takes nothing from (four chains, Ethereum's gas above the balance)", () => {
  const [usdcRow, wethRow] = shortfall({ holdings, requests, needFor, destinationChainId: 8453 })
  // Funded from Optimism alone: 1 USDC and Optimism's gas, not Ethereum's 6 USDC.
  expect(usdcRow).toMatchObject({ required: usdc(1) + usdc(1) / 10n, available: usdc(5), missing: 0n })
  expect(wethRow).toMatchObject({ required: 5n * 10n ** 15n, available: 0n, missing: 5n * 10n ** 15n })
  // The best-effort plan takes the USDC it needs from Optimism only.
  const plan = partialPlan({ holdings, requests, needFor, destinationChainId: 8453 })
  expect(plan.chainIds).toEqual([10])
  expect(plan.allocations[0]?.sources.map((s) => [s.chainId, s.amount])).toEqual([
    [10, usdc(1) + usdc(1) / 10n],
  ])
})

test('an account that can give nothing is counted as funding from the destination chain alone', () => {
  const empty = holdings.map((h) => ({
    ...h,
    tokens: h.tokens.map((t) => ({ ...t, wallet: 0n, permit2Allowance: 0n })),
  }))
  const [usdcRow] = shortfall({ holdings: empty, requests, needFor, destinationChainId: 8453 })
  expect(usdcRow).toMatchObject({ required: usdc(1) + usdc(1) / 10n, available: 0n })
})
