import { describe, expect, test } from 'vitest'
import { type TokenInfo, tokensByChain } from '../../contracts/addresses'
import { createPriceTable } from '../prices/prices'
import type { DepositProcessorConfiguration } from './configStore'
import { evaluateDeposit, planPayout, priceDeviationBps } from './rules'

const [USDC, WETH, USDT] = tokensByChain[1]! as [TokenInfo, TokenInfo, TokenInfo]
const USDC_BASE = tokensByChain[8453]![0]!
const config = (changes: Partial<DepositProcessorConfiguration> = {}): DepositProcessorConfiguration => ({
  webhookUrl: null,
  webhookSecret: null,
  sponsorship: {},
  depositWhitelist: {},
  maxPriceDeviationBps: null,
  ...changes,
})
const base = { chainId: 1, tokenAddress: USDC.address, prices: createPriceTable() }

describe('evaluateDeposit', () => {
  test('without a whitelist every supported token is accepted, with no limits; unknown contracts are TOKEN-3', () => {
    expect(
      evaluateDeposit({ ...base, token: WETH, amount: 10n ** 30n, targetToken: WETH, config: config() }),
    ).toEqual({ accepted: true })
    expect(
      evaluateDeposit({
        ...base,
        token: undefined,
        tokenAddress: '0x1111111111111111111111111111111111111111',
        amount: 1n,
        targetToken: undefined,
        config: config(),
      }),
    ).toMatchObject({ accepted: false, errorCode: 'TOKEN-3' })
  })

  test('rules apply in order: whitelist before bounds before price', async () => {
    const prices = createPriceTable()
    await prices.setPrices({ USDT: 0.5 })
    const c = config({
      depositWhitelist: { 'eip155:1': [{ token: USDC.address, minAmount: '10', maxAmount: '20' }] },
    })
    // USDT: not listed → TOKEN-3 even though its price deviates.
    expect(
      evaluateDeposit({ ...base, prices, token: USDT, amount: 1n, targetToken: USDC_BASE, config: c }),
    ).toMatchObject({ errorCode: 'TOKEN-3' })
    // A whitelist of another chain does not apply here.
    const other = config({ depositWhitelist: { 'eip155:8453': [] } })
    expect(
      evaluateDeposit({ ...base, token: USDC, amount: 1n, targetToken: USDC_BASE, config: other }),
    ).toEqual({ accepted: true })
    expect(
      evaluateDeposit({ ...base, token: USDC, amount: 9n, targetToken: USDC_BASE, config: c }),
    ).toMatchObject({ errorCode: 'BALANCE-3' })
    expect(evaluateDeposit({ ...base, token: USDC, amount: 10n, targetToken: USDC_BASE, config: c })).toEqual(
      { accepted: true },
    )
    expect(evaluateDeposit({ ...base, token: USDC, amount: 20n, targetToken: USDC_BASE, config: c })).toEqual(
      { accepted: true },
    )
    expect(
      evaluateDeposit({ ...base, token: USDC, amount: 21n, targetToken: USDC_BASE, config: c }),
    ).toMatchObject({ errorCode: 'BALANCE-3' })
  })

  test('BRIDGE-5 past maxPriceDeviationBps (default 200), not at it; only between stablecoins', async () => {
    const prices = createPriceTable()
    await prices.setPrices({ USDT: 0.98 })
    const run = (c = config()) =>
      evaluateDeposit({ ...base, prices, token: USDT, amount: 1n, targetToken: USDC_BASE, config: c })
    expect(priceDeviationBps('USDT', 'USDC', prices)).toBe(200)
    expect(run()).toEqual({ accepted: true })
    await prices.setPrices({ USDT: 0.979 })
    expect(priceDeviationBps('USDT', 'USDC', prices)).toBe(210)
    expect(run()).toMatchObject({ errorCode: 'BRIDGE-5' })
    expect(run(config({ maxPriceDeviationBps: 100 }))).toMatchObject({ errorCode: 'BRIDGE-5' })
    await prices.setPrices({ USDC: 0.97, USDT: 1 })
    // A depegged USDC bridged to USDC deviates too.
    expect(
      evaluateDeposit({ ...base, prices, token: USDC, amount: 1n, targetToken: USDC_BASE, config: config() }),
    ).toMatchObject({
      errorCode: 'BRIDGE-5',
    })
    // WETH is no stablecoin: no price check.
    expect(
      evaluateDeposit({ ...base, prices, token: WETH, amount: 1n, targetToken: WETH, config: config() }),
    ).toEqual({ accepted: true })
  })
})

describe('planPayout', () => {
  test('unsponsored: bridging fee 10 bps rounded up, gas at the target gas price in the target token', () => {
    const plan = planPayout({
      amount: 5_000_000n,
      token: USDC,
      targetToken: USDC_BASE,
      sponsorship: undefined,
      accountDeployed: false,
      gasPrice: 1_000_000_000n,
      prices: createPriceTable(),
    })
    // gas: 65 000 × 1 gwei = 6.5e13 wei = 0.000065 ETH × $3000 = $0.195 = 195 000 USDC units.
    expect(plan).toEqual({
      grossAmount: 5_000_000n,
      gasFee: 195_000n,
      bridgingFee: 5_000n,
      amount: 4_800_000n,
      gasSponsored: false,
      bridgingSponsored: false,
    })
  })

  test('sponsorship: gas all, gas deployed (only for an account with code), bridging all; price conversion between symbols', async () => {
    const prices = createPriceTable()
    await prices.setPrices({ USDT: 0.99 })
    const plan = (sponsorship: Parameters<typeof planPayout>[0]['sponsorship'], accountDeployed = false) =>
      planPayout({
        amount: 1_000_000n,
        token: USDT,
        targetToken: USDC_BASE,
        sponsorship,
        accountDeployed,
        gasPrice: 1n,
        prices,
      })
    expect(plan({ gas: 'all', bridging: 'all' })).toMatchObject({ grossAmount: 990_000n, amount: 990_000n })
    expect(plan({ gas: 'deployed', bridging: 'all' }).gasSponsored).toBe(false)
    expect(plan({ gas: 'deployed', bridging: 'all' }, true).gasSponsored).toBe(true)
    expect(plan({ gas: 'all' })).toMatchObject({ bridgingFee: 990n, gasFee: 0n, amount: 989_010n })
  })
})
