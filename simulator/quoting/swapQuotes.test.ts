// Own devnet, not the shared one: its in-process relayer (createServices) would share the relayer key with the shared service (two nonce queues on one key).
import { parseEther, zeroAddress } from 'viem'
import { describe, expect, test } from 'vitest'
import { toLockId } from '../../lib/lockTag'
import { AlpsRouteResponse, BlancRouteResponse, type IntentOp, type RouteRequest } from '../../spec'
import { DEVNET_LOCK_TAG } from '../devnet/funding'
import { valueCovered } from './swaps'
import { createTestQuoting } from './testing/createTestQuoting'
import { errorOf, token, usdc } from './testing/routeRequests'
import { type Received, received, useSwapsDevnet, wethOn10 } from './testing/useSwapsDevnet'
import type { StoredQuotedIntent } from './types'

/** Swaps and native ETH: quoting (plans, fees, access list, sponsorship, insufficient funds). */
const fx = useSwapsDevnet()
const { account, request, approvePermit2 } = fx

/** alps arithmetic: target + fee = spent = what the sources pay for; fee = its parts. */
function expectAddsUp(t: Received) {
  expect(BigInt(t.amountSpentRaw)).toBe(BigInt(t.targetAmountRaw) + BigInt(t.feeRaw))
  expect(Object.values(t.feeBreakdown).reduce((s, v) => s + BigInt(v), 0n)).toBe(BigInt(t.feeRaw))
  expect(t.fundedBy.reduce((s, f) => s + BigInt(f.value), 0n)).toBe(BigInt(t.amountSpentRaw))
}

describe('swap quotes', () => {
  test('a USDC request funded by WETH on another chain: converted at the price table, 10 bps swap fee, exact sums', async () => {
    const alps = await fx.quoting.routeAlps(request({ accountAccessList: wethOn10 }))
    expect(AlpsRouteResponse.safeParse(alps).success).toBe(true)
    expect(alps.intentCost.hasFulfilledAll).toBe(true)
    const t = received(alps)
    expectAddsUp(t)
    expect(t.fundedBy.map((f) => [f.chainId, f.symbol, f.kind])).toEqual([[10, 'WETH', 'SWAP']])
    const value = BigInt(t.amountSpentRaw)
    expect(BigInt(t.feeBreakdown.swapFee ?? '')).toBe((value * 10n + 9_999n) / 10_000n)
    expect(BigInt(t.feeBreakdown.bridgeFee ?? '')).toBeGreaterThan(0n)
    // WETH taken = ceil(value USDC at 1 USD / 3000 USD per WETH).
    const wethTaken = (value * 10n ** 18n + 3000n * 10n ** 6n - 1n) / (3000n * 10n ** 6n)
    expect(BigInt(t.fundedBy[0]?.amount ?? '')).toBe(wethTaken)
    const element = alps.intentOp.elements[0] as IntentOp['elements'][number]
    expect(element.chainId).toBe('10')
    expect(element.idsAndAmounts).toEqual([
      [toLockId(DEVNET_LOCK_TAG, token(10, 'WETH')).toString(), wethTaken.toString()],
    ])
    expect(element.mandate.tokenOut).toEqual([
      [toLockId(DEVNET_LOCK_TAG, token(8453, 'USDC')).toString(), usdc(100).toString()],
    ])
    expect(alps.intentOp.signedMetadata.tokenPrices).toMatchObject({ USDC: 1, WETH: 3000 })
    expect(alps.intentCost.feeBreakdownUSD.swapFeeUSD).toBeGreaterThan(0)
    expect((alps.intentCost.tokensSpent as Record<string, Record<string, { amount: string }>>)['10']).toEqual(
      {
        [token(10, 'WETH')]: { symbol: 'WETH', amount: wethTaken.toString(), fundingMethod: 'COMPACT' },
      },
    )
  })

  test('POST /_devnet/prices moves the conversion; the swap fee is configurable', async () => {
    const before = received(await fx.quoting.routeAlps(request({ accountAccessList: wethOn10 })))
    await fx.quoting.prices.setPrices({ WETH: 2000 })
    try {
      const after = received(await fx.quoting.routeAlps(request({ accountAccessList: wethOn10 })))
      expectAddsUp(after)
      const ratio = Number(after.fundedBy[0]?.amount) / Number(before.fundedBy[0]?.amount)
      expect(ratio).toBeGreaterThan(1.45) // 3000/2000, give or take the gas fee's change
      expect(ratio).toBeLessThan(1.55)
    } finally {
      await fx.quoting.prices.setPrices({ WETH: 3000 })
    }
    const costly = createTestQuoting({
      chains: fx.devnet.chains,
      server: fx.devnet.keys.server.account,
      clock: fx.devnet,
      swapFeeBps: 50,
    })
    const t = received(await costly.routeAlps(request({ accountAccessList: wethOn10 })))
    expectAddsUp(t)
    expect(BigInt(t.feeBreakdown.swapFee ?? '')).toBe((BigInt(t.amountSpentRaw) * 50n + 9_999n) / 10_000n)
    expect(() =>
      createTestQuoting({
        chains: fx.devnet.chains,
        server: fx.devnet.keys.server.account,
        clock: fx.devnet,
        swapFeeBps: 10_000,
      }),
    ).toThrow(RangeError)
  })

  test('swapFeesSponsored moves the swap fee off the user', async () => {
    const plain = await fx.quoting.routeAlps(request({ accountAccessList: wethOn10 }))
    const sponsored = await fx.quoting.routeAlps(
      request({ accountAccessList: wethOn10, options: { sponsorSettings: { swapFeesSponsored: true } } }),
    )
    const t = received(sponsored)
    expectAddsUp(t)
    expect(t.feeBreakdown.swapFee).toBe('0')
    expect(sponsored.intentCost.feeBreakdownUSD.swapFeeUSD).toBe(0)
    expect(sponsored.intentCost.sponsorFee.protocol).toBeGreaterThan(0)
    expect(plain.intentCost.sponsorFee.protocol).toBe(0)
    expect(BigInt(t.fundedBy[0]?.amount ?? '')).toBeLessThan(
      BigInt(received(plain).fundedBy[0]?.amount ?? ''),
    )
  })

  test('a request larger than one token is split: the same token first, then a swap for the rest', async () => {
    // 10,000 USDC locked on 10, plus WETH: 12,000 USDC needs both.
    const alps = await fx.quoting.routeAlps(
      request({
        tokenRequests: [{ tokenAddress: token(8453, 'USDC'), amount: usdc(12_000).toString() }],
        accountAccessList: { chainIds: [10], tokens: ['USDC', 'WETH'] },
      }),
    )
    const t = received(alps)
    expectAddsUp(t)
    expect(t.fundedBy.map((f) => [f.symbol, f.kind])).toEqual([
      ['USDC', 'SAME'],
      ['WETH', 'SWAP'],
    ])
    expect(t.fundedBy[0]?.amount).toBe(usdc(10_000).toString())
    const swapped = BigInt(t.fundedBy[1]?.value ?? '')
    expect(BigInt(t.feeBreakdown.swapFee ?? '')).toBe((swapped * 10n + 9_999n) / 10_000n)
    // Two lock ids on chain 10: one element, both ids.
    expect(alps.intentOp.elements.map((e) => e.idsAndAmounts.length)).toEqual([2])
  })

  test('blanc offers a same-token route and a swap route, sorted by cost, each adding up exactly', async () => {
    const response = await fx.quoting.routeBlanc(
      request({ accountAccessList: { chainIds: [10], tokens: ['USDC', 'WETH'] } }),
    )
    expect(BlancRouteResponse.safeParse(response).success).toBe(true)
    const routes = response.routes as unknown as {
      intentId: string
      cost: {
        input: { symbol: string; kind: string; forOutput: { amount: string } }[]
        output: { amount: string }[]
        fees: { totalUsd: number; breakdown: Record<string, { amounts: { amount: string }[] }> }
      }
    }[]
    const kinds = routes.map((r) => r.cost.input.map((i) => i.kind).join('+'))
    expect(kinds).toEqual(['SAME', 'SWAP'])
    const costs = routes.map((r) => r.cost.fees.totalUsd)
    expect([...costs].sort((a, b) => a - b)).toEqual(costs)
    for (const r of routes) {
      const inSum = r.cost.input.reduce((s, i) => s + BigInt(i.forOutput.amount), 0n)
      const fees = Object.values(r.cost.fees.breakdown).reduce(
        (s, f) => s + BigInt(f.amounts[0]?.amount ?? '0'),
        0n,
      )
      expect(inSum).toBe(BigInt(r.cost.output[0]?.amount ?? '') + fees)
    }
  })

  test('insufficient funds count swaps: enough WETH is a quote, too little is 422 / tokenRequirements', async () => {
    // 10 WETH locked on 10 at 3000 USD: 25,000 USDC can be swapped, 35,000 cannot.
    const ok = await fx.quoting.routeAlps(
      request({
        tokenRequests: [{ tokenAddress: token(8453, 'USDC'), amount: usdc(25_000).toString() }],
        accountAccessList: wethOn10,
      }),
    )
    expect(ok.intentCost.hasFulfilledAll).toBe(true)
    const big = request({
      tokenRequests: [{ tokenAddress: token(8453, 'USDC'), amount: usdc(35_000).toString() }],
      accountAccessList: wethOn10,
    })
    const error = await errorOf(fx.quoting.routeBlanc(big))
    expect(error?.code).toBe('INSUFFICIENT_LIQUIDITY')
    const [requirement] = (error?.data?.tokenRequirements ?? []) as { available: string; missing: string }[]
    expect(requirement?.available).toBe(usdc(30_000).toString())
    const alps = await fx.quoting.routeAlps(big)
    expect(alps.intentCost.hasFulfilledAll).toBe(false)
    const missing = (alps.tokenRequirements as Record<string, { missing: string; required: string }>)[
      token(8453, 'USDC')
    ]
    expect(BigInt(missing?.missing ?? '0')).toBeGreaterThan(usdc(5_000))
    expect(BigInt(missing?.required ?? '0')).toBe(BigInt(missing?.missing ?? '0') + usdc(30_000))
  })

  test('requests that share a source are short together: the second sees only what the first leaves', async () => {
    // Only the 10 WETH locked on 10 (~30,000 USD) may pay: 6 WETH alone fits, 20,000 USDC (swapped
    // from WETH) alone fits, both do not. What is missing is the second request's, after the first
    // took its share.
    const both = request({
      tokenRequests: [
        { tokenAddress: token(8453, 'WETH'), amount: parseEther('6').toString() },
        { tokenAddress: token(8453, 'USDC'), amount: usdc(20_000).toString() },
      ],
      accountAccessList: wethOn10,
    })
    const error = await errorOf(fx.quoting.routeBlanc(both))
    expect(error?.code).toBe('INSUFFICIENT_LIQUIDITY')
    expect(error?.message).toMatch(/USDC/)
    expect(error?.message).not.toMatch(/WETH/)
    const rows = (error?.data?.tokenRequirements ?? []) as {
      symbol: string
      available: string
      missing: string
      required: string
    }[]
    expect(rows.map((r) => r.symbol)).toEqual(['WETH', 'USDC'])
    const [first, second] = rows as [(typeof rows)[0], (typeof rows)[0]]
    expect(first.missing).toBe('0')
    expect(first.available).toBe(parseEther('10').toString())
    // The second sees the WETH the first did not take, valued in USDC at the price table.
    const price = (symbol: string) => fx.quoting.prices.get(symbol) ?? 0
    const left = valueCovered(
      parseEther('10') - BigInt(first.required),
      'SWAP',
      { decimals: 18, price: price('WETH') },
      { decimals: 6, price: price('USDC') },
    )
    expect(BigInt(second.available)).toBe(left)
    expect(BigInt(second.missing)).toBe(BigInt(second.required) - BigInt(second.available))
    expect(BigInt(second.missing)).toBeGreaterThan(usdc(7_000))

    // alps: the same rows, and a partial intent that spends what the account has, within its WETH.
    const alps = await fx.quoting.routeAlps(both)
    expect(alps.intentCost.hasFulfilledAll).toBe(false)
    const requirements = alps.tokenRequirements as Record<string, { missing: string }>
    expect(requirements[token(8453, 'WETH')]?.missing).toBe('0')
    expect(requirements[token(8453, 'USDC')]?.missing).toBe(second.missing)
    expect(received(alps, 0).fundedBy.map((f) => [f.chainId, f.symbol, f.kind])).toEqual([
      [10, 'WETH', 'SAME'],
    ])
    expect(received(alps, 1).fundedBy.map((f) => [f.chainId, f.symbol, f.kind])).toEqual([
      [10, 'WETH', 'SWAP'],
    ])
    const wethSpent = [...received(alps, 0).fundedBy, ...received(alps, 1).fundedBy].reduce(
      (s, f) => s + BigInt(f.amount),
      0n,
    )
    expect(wethSpent).toBeLessThanOrEqual(parseEther('10'))
    expect(wethSpent).toBeGreaterThan(parseEther('9.999'))
  })
})

describe('native ETH as tokenOut', () => {
  const ethRequest = (amount: bigint, overrides: Partial<RouteRequest> = {}) =>
    request({ tokenRequests: [{ tokenAddress: zeroAddress, amount: amount.toString() }], ...overrides })

  test('funded from native ETH locks (COMPACT), or from WETH 1:1 without a swap fee; never native through Permit2', async () => {
    const native = await fx.quoting.routeAlps(
      ethRequest(parseEther('1'), { accountAccessList: { chainIds: [10] } }),
    )
    const t = received(native)
    expectAddsUp(t)
    expect(t.fundedBy.map((f) => [f.symbol, f.kind])).toEqual([['ETH', 'SAME']])
    expect(native.intentOp.elements[0]?.idsAndAmounts[0]?.[0]).toBe(
      toLockId(DEVNET_LOCK_TAG, zeroAddress).toString(),
    )
    expect(native.intentOp.elements[0]?.mandate.tokenOut[0]?.[0]).toBe(
      toLockId(DEVNET_LOCK_TAG, zeroAddress).toString(),
    )

    const wrapped = await fx.quoting.routeAlps(
      ethRequest(parseEther('1'), { accountAccessList: { chainIds: [10], tokens: ['WETH'] } }),
    )
    const w = received(wrapped)
    expectAddsUp(w)
    expect(w.fundedBy.map((f) => [f.symbol, f.kind])).toEqual([['WETH', 'WRAP']])
    expect(w.feeBreakdown.swapFee).toBe('0')
    expect(w.fundedBy[0]?.amount).toBe(w.fundedBy[0]?.value)

    // An account that approved WETH to Permit2 gets PERMIT2 routes, from WETH only.
    await approvePermit2(account(1), 10, token(10, 'WETH'))
    const blanc = await fx.quoting.routeBlanc(
      ethRequest(parseEther('2'), { account: { address: account(1).address, accountType: 'EOA' } }),
    )
    const stored = blanc.routes.map((r) => fx.quoting.quotes.get(r.intentId)?.quote as StoredQuotedIntent)
    expect(stored.some((q) => q.fundingMethod === 'PERMIT2')).toBe(true)
    for (const q of stored.filter((x) => x.fundingMethod === 'PERMIT2'))
      for (const s of q.sources.flat()) expect(s.token).not.toBe(zeroAddress)
    expect(stored.some((q) => q.sources.flat().some((s) => s.token === zeroAddress))).toBe(true)
  })

  test("an unknown token is still 400, and 'ETH' is a known symbol in accountAccessList", async () => {
    const error = await errorOf(
      fx.quoting.routeAlps(
        request({ tokenRequests: [{ tokenAddress: `0x${'12'.repeat(20)}`, amount: '1' }] }),
      ),
    )
    expect(error?.code).toBe('VALIDATION_ERROR')
    const ok = await fx.quoting.routeAlps(
      ethRequest(parseEther('0.1'), { accountAccessList: { chainTokens: { '8453': ['ETH'] } } }),
    )
    expect(received(ok).fundedBy.map((f) => [f.chainId, f.symbol])).toEqual([[8453, 'ETH']])
  })
})
