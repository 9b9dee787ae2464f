import { describe, expect, test } from 'vitest'
import { tokensByChain } from '../../contracts/addresses'
import { DepositProcessorParams } from '../../spec'
import { createConfigStore, maskSecret } from './configStore'
import { createTokenDirectory } from './tokenDirectory'

const usdc1 = tokensByChain[1]![0]!.address
const usdt1 = tokensByChain[1]![2]!.address
const store = () =>
  createConfigStore({ tokens: createTokenDirectory({ 1: tokensByChain[1]!, 8453: tokensByChain[8453]! }) })

describe('setup: partial updates', () => {
  test('omitted fields keep their value; null clears strings and the deviation; {} clears objects', () => {
    const s = store()
    s.apply('t', {
      webhookUrl: 'https://example.com/hook',
      webhookSecret: 'a-long-enough-secret-1234',
      sponsorship: { 'eip155:1': { gas: 'all', bridging: 'all' } },
      depositWhitelist: { 'eip155:1': [{ token: usdc1.toLowerCase(), minAmount: '1', maxAmount: '10' }] },
      maxPriceDeviationBps: 50,
    })
    s.apply('t', { maxPriceDeviationBps: 75 })
    expect(s.read('t')).toEqual({
      webhookUrl: 'https://example.com/hook',
      webhookSecret: '********1234',
      sponsorship: { 'eip155:1': { gas: 'all', bridging: 'all' } },
      depositWhitelist: { 'eip155:1': [{ token: usdc1, minAmount: '1', maxAmount: '10' }] },
      maxPriceDeviationBps: 75,
      accounts: [],
    })
    s.apply('t', { webhookSecret: null, maxPriceDeviationBps: null, sponsorship: {} })
    expect(s.read('t')).toMatchObject({
      webhookUrl: 'https://example.com/hook',
      webhookSecret: null,
      sponsorship: {},
      maxPriceDeviationBps: 200,
      depositWhitelist: { 'eip155:1': [{ token: usdc1 }] },
    })
    s.apply('t', { webhookUrl: null, depositWhitelist: {} })
    expect(s.read('t')).toMatchObject({ webhookUrl: null, depositWhitelist: {} })
    expect(s.config('t').webhookSecret).toBeNull()
  })

  test('the secret is never read back in clear', () => {
    expect(maskSecret('short')).toBe('********')
    expect(maskSecret('0123456789abcdefXYZW')).toBe('********XYZW')
    expect(maskSecret(null)).toBeNull()
  })

  test('a whitelist replaces the previous one as a whole (per field, not per chain)', () => {
    const s = store()
    s.apply('t', { depositWhitelist: { 'eip155:1': [{ token: usdc1 }], 'eip155:8453': [] } })
    s.apply('t', { depositWhitelist: { 'eip155:1': [{ token: usdt1 }] } })
    expect(Object.keys(s.read('t').depositWhitelist)).toEqual(['eip155:1'])
  })

  test('checks the schemas cannot make, and changes nothing when one fails', () => {
    const s = store()
    s.apply('t', { maxPriceDeviationBps: 10 })
    expect(() =>
      s.apply('t', { maxPriceDeviationBps: 20, depositWhitelist: { 'eip155:10': [{ token: usdc1 }] } }),
    ).toThrowErrorMatchingInlineSnapshot(`
      [DepositProcessor.InvalidConfigurationError: depositWhitelist.eip155:10: chain eip155:10 is not a chain of this devnet (known: eip155:1, eip155:8453).
      Docs: docs/deposit-processor.md]
    `)
    expect(() =>
      s.apply('t', { depositWhitelist: { 'eip155:8453': [{ token: usdt1 }] } }),
    ).toThrowErrorMatchingInlineSnapshot(`
      [DepositProcessor.InvalidConfigurationError: depositWhitelist.eip155:8453[0].token: 0xdAC17F958D2ee523a2206206994597C13D831ec7 is not a token this devnet knows on chain 8453 (the zero address stands for native ether).
      Docs: docs/deposit-processor.md]
    `)
    expect(() => s.apply('t', { sponsorship: { 'eip155:5': { gas: 'all' } } })).toThrow(
      /not a chain of this devnet/,
    )
    expect(() =>
      s.apply('t', { depositWhitelist: { 'eip155:1': [{ token: usdc1 }, { token: usdc1.toLowerCase() }] } }),
    ).toThrow(/listed twice/)
    expect(s.read('t').maxPriceDeviationBps).toBe(10)
    // The native token (zero address) can be whitelisted.
    s.apply('t', {
      depositWhitelist: { 'eip155:1': [{ token: '0x0000000000000000000000000000000000000000' }] },
    })
  })

  test('the route schema refuses what the spec refuses (min above max, bad keys, out-of-range bps)', () => {
    expect(DepositProcessorParams.safeParse({ maxPriceDeviationBps: 10_001 }).success).toBe(false)
    expect(DepositProcessorParams.safeParse({ sponsorship: { '1': {} } }).success).toBe(false)
    expect(
      DepositProcessorParams.safeParse({
        depositWhitelist: { 'eip155:1': [{ token: usdc1, minAmount: '2', maxAmount: '1' }] },
      }).success,
    ).toBe(false)
  })
})

describe('tenants and registrations', () => {
  test('two tenants never see or change each other', () => {
    const s = store()
    s.apply('a', { webhookUrl: 'https://a.example/hook', maxPriceDeviationBps: 1 })
    s.apply('b', { webhookUrl: null })
    expect(s.read('a')).toMatchObject({ webhookUrl: 'https://a.example/hook', maxPriceDeviationBps: 1 })
    expect(s.read('b')).toMatchObject({ webhookUrl: null, maxPriceDeviationBps: 200 })
  })

  test('register resolves target tokens by symbol or address, and one account has one owner', () => {
    const s = store()
    const account = '0x70997970c51812dc3a010c7d01b50e0d17dc79c8'
    expect(s.register('a', { account, targetChainId: '8453', targetToken: 'usdc' }, 'now')).toMatchObject({
      account: '0x70997970C51812dc3A010C7d01b50e0d17dc79C8',
      targetChainId: 8453,
      targetToken: tokensByChain[8453]![0]!.address,
    })
    expect(() => s.register('b', { account, targetChainId: 1 }, 'now')).toThrow(
      /already registered by another API key/,
    )
    expect(() => s.register('a', { account, targetChainId: 8453, targetToken: 'USDT' }, 'now')).toThrow(
      /not a token this devnet knows on chain 8453/,
    )
    expect(() => s.register('a', { account, targetChainId: 10 }, 'now')).toThrow(/not a chain of this devnet/)
    expect(s.read('a').accounts).toHaveLength(1)
    expect(s.read('b').accounts).toHaveLength(0)
  })
})
