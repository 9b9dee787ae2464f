import { describe, expect, it } from 'vitest'
import { canonicalJson } from './serverSignature'

/** The definition: JSON.stringify with every object's keys sorted and bigints as decimal strings. */
const reference = (value: unknown) =>
  JSON.stringify(value, (_key, v) =>
    v && typeof v === 'object' && !Array.isArray(v)
      ? Object.fromEntries(
          Object.keys(v as object)
            .sort()
            .map((k) => [k, (v as Record<string, unknown>)[k]]),
        )
      : typeof v === 'bigint'
        ? v.toString()
        : v,
  )

describe('canonicalJson', () => {
  it('writes what sorted-key JSON.stringify writes, for metadata-shaped and awkward values', () => {
    const values: unknown[] = [
      {
        tokenPrices: { USDC: 1, ETH: 3000.5 },
        gasPrices: { '8453': '1000000000', '1': '2' },
        account: { address: '0xabc', setupOps: [], accountContext: { z: true, a: false } },
        fees: { sponsorFee: { relayer: 0, protocol: 0.25 }, protocolFees: { '0xdef': '10' } },
        schemeId: 'v1',
      },
      {
        b: undefined,
        a: null,
        c: [undefined, () => 1, 1n, 'x"y\n'],
        d: new Date(0),
        e: { toJSON: () => 'j' },
      },
      [1, 'two', { y: 2, x: 1 }, [], {}],
      'plain',
      42,
      null,
      12345678901234567890n,
      { ünï: 'cödé', '"q"': -0, big: 2n ** 200n, nan: Number.NaN, inf: Number.POSITIVE_INFINITY },
    ]
    for (const value of values) expect(canonicalJson(value)).toBe(reference(value))
  })
})
