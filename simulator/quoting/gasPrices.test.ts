import { parseUnits } from 'viem'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { tokensByChain } from '../../contracts/addresses'
import { type Simulator, startSimulator } from '../startSimulator'
import { createGasPrices, DEFAULT_GAS_PRICES_GWEI, InvalidGasPriceError } from './gasPrices'

describe('the gas price table', () => {
  it('defaults near what each chain runs at: Ethereum in gwei, the L2s sub-gwei', () => {
    const gas = createGasPrices()
    expect(gas.gwei(1)).toBe('10')
    expect(gas.wei(8453)).toBe(10_000_000n)
    expect(gas.wei(10)).toBe(1_000_000n)
    expect(gas.wei(42161)).toBe(10_000_000n)
    expect(gas.l1BaseFeeWei).toBe(10_000_000_000n)
    // Ecotone: bytes × (16 × 1368 × l1BaseFee + 810949 × 1 wei) / 1e6
    expect(gas.l1DataFeeWei(8453, 400n)).toBe(
      (400n * (16n * 1368n * 10_000_000_000n + 810_949n)) / 1_000_000n,
    )
    expect(gas.l1DataFeeWei(42161, 400n)).toBe(0n)
    expect(gas.l1DataFeeWei(1, 400n)).toBe(0n)
  })

  it('takes overrides in gwei, and the L1 base fee follows chain 1', () => {
    const gas = createGasPrices({ 8453: '0.5', 1: '30' })
    expect(gas.wei(8453)).toBe(500_000_000n)
    expect(gas.l1BaseFeeWei).toBe(30_000_000_000n)
    expect(gas.gwei(10)).toBe(DEFAULT_GAS_PRICES_GWEI[10])
  })

  it('refuses a price that is not a positive number of gwei, naming the chain', () => {
    for (const bad of ['0', '-1', 'abc', '1e3', '0.0000000001', '1000000'])
      expect(() => createGasPrices({ 8453: bad })).toThrow(InvalidGasPriceError)
    expect(() => createGasPrices({ 8453: 'x' })).toThrow(/chain 8453/)
  })
})

type Routes = {
  routes: { cost: { fees: { totalUsd: number; breakdown: Record<string, { usd: number }> } } }[]
}

describe('quotes on a real devnet charge what the chain would', () => {
  let sim: Simulator
  const usdc = tokensByChain[8453]?.find((t) => t.symbol === 'USDC')?.address as string
  const quote = async (amount: string) => {
    const response = await fetch(`${sim.baseUrl}/intents/route`, {
      method: 'POST',
      headers: {
        'x-api-key': sim.apiKey,
        'x-api-version': '2026-04.blanc',
        'content-type': 'application/json',
      },
      body: JSON.stringify({
        destinationChainId: 8453,
        tokenRequests: [{ tokenAddress: usdc, amount: parseUnits(amount, 6).toString() }],
        account: { address: sim.devnet.keys.accounts[0]?.address, accountType: 'EOA' },
        accountAccessList: { chainIds: [8453] },
      }),
    })
    expect(response.status).toBe(200)
    return (await response.json()) as Routes
  }

  beforeAll(async () => {
    sim = await startSimulator({ chainIds: [1, 8453], gasPrices: { 1: '20' } })
  })
  afterAll(() => sim?.close())

  it('a 1 USDC Base→Base intent costs cents, and the manifest shows the gas prices', async () => {
    const { routes } = await quote('1')
    const fees = routes[0]!.cost.fees
    expect(fees.totalUsd).toBeGreaterThan(0)
    expect(fees.totalUsd).toBeLessThan(0.05)
    expect(fees.breakdown.gas?.usd).toBeGreaterThan(0)
    const manifest = sim.manifest()
    expect(manifest.service.gasPrices).toEqual({ '1': '20', '8453': '0.01' })
  })

  it('the gas fee follows --gas-price (and the L1 data fee the L1 price)', async () => {
    const before = (await quote('1')).routes[0]!.cost.fees.breakdown.gas!.usd
    const other = await startSimulator({ chainIds: [8453], gasPrices: { 8453: '1' } })
    try {
      const response = await fetch(`${other.baseUrl}/intents/route`, {
        method: 'POST',
        headers: {
          'x-api-key': other.apiKey,
          'x-api-version': '2026-04.blanc',
          'content-type': 'application/json',
        },
        body: JSON.stringify({
          destinationChainId: 8453,
          tokenRequests: [{ tokenAddress: usdc, amount: '1000000' }],
          account: { address: other.devnet.keys.accounts[0]?.address, accountType: 'EOA' },
        }),
      })
      const { routes } = (await response.json()) as Routes
      const after = routes[0]!.cost.fees.breakdown.gas!.usd
      // 100x the L2 price, and half the L1 price (10 against 20 gwei): the L2 execution dominates.
      expect(after / before).toBeGreaterThan(50)
      expect(after / before).toBeLessThan(100)
    } finally {
      await other.close()
    }
  })
})
