// Own devnet, not the shared one: its in-process relayer (createServices) would share the relayer key with the shared service (two nonce queues on one key).
import {
  type Address,
  erc20Abi,
  type Hex,
  keccak256,
  maxUint256,
  parseEther,
  parseUnits,
  type TypedDataDefinition,
  toHex,
  zeroAddress,
} from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { addresses, type TokenInfo, tokensByChain } from '../../contracts/addresses'
import { toLockId } from '../../lib/lockTag'
import { AlpsRouteResponse, BlancRouteResponse, type IntentOp, type RouteRequest } from '../../spec'
import { DEVNET_LOCK_TAG } from '../devnet/funding'
import { type Devnet, startDevnet } from '../devnet/startDevnet'
import { compactTypedData } from '../eip712/typedData'
import { createFaults } from '../faults/faults'
import type { ApiError } from '../http/errorCodes'
import { toApiErrorOfDomain } from '../http/errorMapping'
import { type VersionedQuoting, withVersionedAnswers } from '../http/testing/versionedQuoting'
import { balanceOf, compactBalanceOf } from '../settlement/testing/buildSignedIntent'
import { waitForStatus } from '../settlement/testing/waitForStatus'
import { createServices } from '../startSimulator'
import type { QuotingServiceInstance } from './createQuotingService'
import { planFunding } from './planFunding'
import { amountFor, NATIVE_ETH, sourceKind, swappedFor, valueCovered } from './swaps'
import { createTestQuoting } from './testing/createTestQuoting'
import type { ChainHoldings, StoredQuotedIntent, TokenHolding } from './types'

/**
 * Swaps and native ETH: quoting (plans, fees, access list, sponsorship, insufficient funds) and
 * settlement on the devnet (a swap intent and a native-ETH-out intent reach COMPLETED and the
 * recipient receives exactly tokenOut).
 */
let devnet: Devnet
let quoting: QuotingServiceInstance & VersionedQuoting
let stack: Awaited<ReturnType<typeof createServices>>

const token = (chainId: number, symbol: string) =>
  tokensByChain[chainId]?.find((t) => t.symbol === symbol)?.address as Address
const usdc = (n: number) => parseUnits(String(n), 6)
const account = (i: number) => devnet.keys.accounts[i] as (typeof devnet.keys.accounts)[number]
const freshAddress = (label: string) => privateKeyToAccount(keccak256(toHex(label))).address

beforeAll(async () => {
  devnet = await startDevnet({ chainIds: [10, 8453], accountCount: 6 })
  stack = await createServices({ devnet, faults: createFaults() })
  quoting = withVersionedAnswers(stack.quoting)
}, 120_000)
afterAll(async () => {
  await stack?.stop()
  await devnet?.stop()
})

const request = (overrides: Partial<RouteRequest> = {}): RouteRequest => ({
  destinationChainId: 8453,
  tokenRequests: [{ tokenAddress: token(8453, 'USDC'), amount: usdc(100).toString() }],
  account: { address: account(0).address, accountType: 'EOA' },
  ...overrides,
})
/** Only WETH on chain 10 may be spent: a USDC request on 8453 must be swapped. */
const wethOn10 = { chainTokens: { '10': ['WETH'] } }

async function errorOf(promise: Promise<unknown>) {
  return promise.then(
    () => undefined,
    // As the HTTP layer answers it: the domain error mapped onto the error-code table.
    (e) => toApiErrorOfDomain(e) as ApiError,
  )
}

type Received = {
  tokenAddress: string
  amountSpentRaw: string
  targetAmountRaw: string
  feeRaw: string
  feeBreakdown: Record<string, string>
  fundedBy: { chainId: number; symbol: string; amount: string; kind: string; value: string }[]
}
const received = (r: { intentCost: { tokensReceived: unknown[] } }, i = 0) =>
  r.intentCost.tokensReceived[i] as Received

/** alps arithmetic: target + fee = spent = what the sources pay for; fee = its parts. */
function expectAddsUp(t: Received) {
  expect(BigInt(t.amountSpentRaw)).toBe(BigInt(t.targetAmountRaw) + BigInt(t.feeRaw))
  expect(Object.values(t.feeBreakdown).reduce((s, v) => s + BigInt(v), 0n)).toBe(BigInt(t.feeRaw))
  expect(t.fundedBy.reduce((s, f) => s + BigInt(f.value), 0n)).toBe(BigInt(t.amountSpentRaw))
}

const waitFor = (id: string) =>
  waitForStatus(stack.services.intents, id, ['COMPLETED', 'FAILED', 'EXPIRED'], 60_000)

/** Signs an alps COMPACT intent as an EOA (one MultichainCompact) and submits it. */
async function submitCompact(intentOp: IntentOp, signer: (typeof devnet.keys.accounts)[number]) {
  const signature = await signer.account.signTypedData(
    compactTypedData(intentOp) as unknown as TypedDataDefinition,
  )
  const originSignatures = intentOp.elements.map(() => signature) as [Hex, ...Hex[]]
  const result = await stack.services.intents.submitOperation({
    ...intentOp,
    originSignatures,
    destinationSignature: signature,
  })
  return waitFor(result.id)
}

async function approvePermit2(
  owner: (typeof devnet.keys.accounts)[number],
  chainId: number,
  address: Address,
) {
  const chain = devnet.chain(chainId)
  const hash = await chain.relayerClient.writeContract({
    account: owner.account,
    address,
    abi: erc20Abi,
    functionName: 'approve',
    args: [addresses.permit2, maxUint256],
  })
  expect((await chain.publicClient.waitForTransactionReceipt({ hash, pollingInterval: 20 })).status).toBe(
    'success',
  )
}

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

describe('swap quotes', () => {
  test('a USDC request funded by WETH on another chain: converted at the price table, 10 bps swap fee, exact sums', async () => {
    const alps = await quoting.routeAlps(request({ accountAccessList: wethOn10 }))
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
    const before = received(await quoting.routeAlps(request({ accountAccessList: wethOn10 })))
    await quoting.prices.setPrices({ WETH: 2000 })
    try {
      const after = received(await quoting.routeAlps(request({ accountAccessList: wethOn10 })))
      expectAddsUp(after)
      const ratio = Number(after.fundedBy[0]?.amount) / Number(before.fundedBy[0]?.amount)
      expect(ratio).toBeGreaterThan(1.45) // 3000/2000, give or take the gas fee's change
      expect(ratio).toBeLessThan(1.55)
    } finally {
      await quoting.prices.setPrices({ WETH: 3000 })
    }
    const costly = createTestQuoting({
      chains: devnet.chains,
      server: devnet.keys.server.account,
      clock: devnet,
      swapFeeBps: 50,
    })
    const t = received(await costly.routeAlps(request({ accountAccessList: wethOn10 })))
    expectAddsUp(t)
    expect(BigInt(t.feeBreakdown.swapFee ?? '')).toBe((BigInt(t.amountSpentRaw) * 50n + 9_999n) / 10_000n)
    expect(() =>
      createTestQuoting({
        chains: devnet.chains,
        server: devnet.keys.server.account,
        clock: devnet,
        swapFeeBps: 10_000,
      }),
    ).toThrow(RangeError)
  })

  test('swapFeesSponsored moves the swap fee off the user', async () => {
    const plain = await quoting.routeAlps(request({ accountAccessList: wethOn10 }))
    const sponsored = await quoting.routeAlps(
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
    const alps = await quoting.routeAlps(
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
    const response = await quoting.routeBlanc(
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
    const ok = await quoting.routeAlps(
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
    const error = await errorOf(quoting.routeBlanc(big))
    expect(error?.code).toBe('INSUFFICIENT_LIQUIDITY')
    const [requirement] = (error?.data?.tokenRequirements ?? []) as { available: string; missing: string }[]
    expect(requirement?.available).toBe(usdc(30_000).toString())
    const alps = await quoting.routeAlps(big)
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
    const error = await errorOf(quoting.routeBlanc(both))
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
    const price = (symbol: string) => quoting.prices.get(symbol) ?? 0
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
    const alps = await quoting.routeAlps(both)
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
    const native = await quoting.routeAlps(
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

    const wrapped = await quoting.routeAlps(
      ethRequest(parseEther('1'), { accountAccessList: { chainIds: [10], tokens: ['WETH'] } }),
    )
    const w = received(wrapped)
    expectAddsUp(w)
    expect(w.fundedBy.map((f) => [f.symbol, f.kind])).toEqual([['WETH', 'WRAP']])
    expect(w.feeBreakdown.swapFee).toBe('0')
    expect(w.fundedBy[0]?.amount).toBe(w.fundedBy[0]?.value)

    // An account that approved WETH to Permit2 gets PERMIT2 routes, from WETH only.
    await approvePermit2(account(1), 10, token(10, 'WETH'))
    const blanc = await quoting.routeBlanc(
      ethRequest(parseEther('2'), { account: { address: account(1).address, accountType: 'EOA' } }),
    )
    const stored = blanc.routes.map((r) => quoting.quotes.get(r.intentId)?.quote as StoredQuotedIntent)
    expect(stored.some((q) => q.fundingMethod === 'PERMIT2')).toBe(true)
    for (const q of stored.filter((x) => x.fundingMethod === 'PERMIT2'))
      for (const s of q.sources.flat()) expect(s.token).not.toBe(zeroAddress)
    expect(stored.some((q) => q.sources.flat().some((s) => s.token === zeroAddress))).toBe(true)
  })

  test("an unknown token is still 400, and 'ETH' is a known symbol in accountAccessList", async () => {
    const error = await errorOf(
      quoting.routeAlps(request({ tokenRequests: [{ tokenAddress: `0x${'12'.repeat(20)}`, amount: '1' }] })),
    )
    expect(error?.code).toBe('VALIDATION_ERROR')
    const ok = await quoting.routeAlps(
      ethRequest(parseEther('0.1'), { accountAccessList: { chainTokens: { '8453': ['ETH'] } } }),
    )
    expect(received(ok).fundedBy.map((f) => [f.chainId, f.symbol])).toEqual([[8453, 'ETH']])
  })
})

describe('settlement of swap and native-ETH intents on the devnet', () => {
  test('alps: WETH locked on 10 → USDC on 8453 reaches COMPLETED; the recipient gets exactly tokenOut', async () => {
    const user = account(2)
    const recipient = freshAddress('swaps.test usdc recipient')
    const alps = await quoting.routeAlps(
      request({
        account: { address: user.address, accountType: 'EOA' },
        recipient: { address: recipient },
        tokenRequests: [{ tokenAddress: token(8453, 'USDC'), amount: usdc(250).toString() }],
        accountAccessList: wethOn10,
      }),
    )
    const wethAmount = alps.intentOp.elements[0]?.idsAndAmounts[0]?.[1] ?? '0'
    expect(BigInt(wethAmount)).toBeGreaterThan(0n)
    const lockBefore = await compactBalanceOf(devnet, 10, token(10, 'WETH'), user.address)
    const status = await submitCompact(alps.intentOp, user)
    expect(status.status).toBe('COMPLETED')
    expect(await balanceOf(devnet, 8453, token(8453, 'USDC'), recipient)).toBe(usdc(250))
    expect(await compactBalanceOf(devnet, 10, token(10, 'WETH'), user.address)).toBe(
      lockBefore - BigInt(wethAmount),
    )
  })

  test('blanc: WETH through Permit2 on 10 → USDC on 8453, signed as given, reaches COMPLETED', async () => {
    const user = account(3)
    const recipient = freshAddress('swaps.test permit2 recipient')
    await approvePermit2(user, 10, token(10, 'WETH'))
    const response = await quoting.routeBlanc(
      request({
        account: { address: user.address, accountType: 'EOA' },
        recipient: { address: recipient },
        tokenRequests: [{ tokenAddress: token(8453, 'USDC'), amount: usdc(40_000).toString() }],
        accountAccessList: wethOn10,
      }),
    )
    // 40,000 USDC is more than the 10 locked WETH: only the wallet's WETH (Permit2) can pay.
    const route = response.routes[0] as (typeof response.routes)[number]
    const quoted = quoting.quotes.get(route.intentId)?.quote as StoredQuotedIntent
    expect(quoted.fundingMethod).toBe('PERMIT2')
    expect(quoted.sources.flat().map((s) => s.kind)).toEqual(['SWAP'])
    const wethBefore = await balanceOf(devnet, 10, token(10, 'WETH'), user.address)
    const origin = await Promise.all(
      route.signData.origin.map((td) => user.account.signTypedData(td as unknown as TypedDataDefinition)),
    )
    const destination = await user.account.signTypedData(
      route.signData.destination as unknown as TypedDataDefinition,
    )
    const submitted = await stack.services.intents.submitQuoted(route.intentId, {
      originSignatures: origin,
      destinationSignature: destination,
    })
    const status = await waitFor(String(submitted.id))
    expect(status.status).toBe('COMPLETED')
    expect(await balanceOf(devnet, 8453, token(8453, 'USDC'), recipient)).toBe(usdc(40_000))
    expect(await balanceOf(devnet, 10, token(10, 'WETH'), user.address)).toBe(
      wethBefore - (quoted.sources[0]?.[0]?.amount ?? 0n),
    )
  })

  test('native ETH out: from an ETH lock, and from WETH 1:1; the recipient gets exactly tokenOut in ether', async () => {
    const user = account(4)
    for (const [label, tokens] of [
      ['eth', ['ETH']],
      ['weth', ['WETH']],
    ] as const) {
      const recipient = freshAddress(`swaps.test native recipient ${label}`)
      const amount = parseEther('0.75')
      const alps = await quoting.routeAlps(
        request({
          account: { address: user.address, accountType: 'EOA' },
          recipient: { address: recipient },
          tokenRequests: [{ tokenAddress: zeroAddress, amount: amount.toString() }],
          accountAccessList: { chainIds: [10], tokens: [...tokens] },
        }),
      )
      expect(received(alps).fundedBy.map((f) => f.symbol)).toEqual([...tokens])
      const status = await submitCompact(alps.intentOp, user)
      expect(status.status).toBe('COMPLETED')
      expect(await devnet.chain(8453).publicClient.getBalance({ address: recipient })).toBe(amount)
    }
  })
})
