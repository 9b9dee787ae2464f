import { setTimeout as sleep } from 'node:timers/promises'
import type { Address } from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { describe, expect, it } from 'vitest'
import type { IntentOp } from '../../spec'
import { serverSignatureDigest, verifyServerSignature } from '../signing/serverSignature'
import { createQuoteStore, QUOTE_ENTRY_BYTES } from './quoteStore'
import { createStoredQuoteCodec } from './toStoredQuote'
import type { StoredQuotedIntent } from './types'

/** A clock that moves only when told. */
function manualClock(start = 1_800_000_000) {
  let now = start
  return {
    now: () => now,
    nowMs: () => now * 1000,
    advance(seconds: number) {
      now += seconds
    },
  }
}

describe('quote store sweep timer', () => {
  it('forgets expired quotes on its timer, with no new quote arriving', async () => {
    const clock = manualClock()
    const quotes = createQuoteStore<number>({ clock, ttlSeconds: 60, sweepIntervalMs: 20 })
    try {
      for (let i = 0; i < 5; i++) quotes.put(i)
      await sleep(80)
      expect(quotes.size).toBe(5) // live quotes stay
      clock.advance(60)
      const deadline = Date.now() + 2_000
      while (quotes.size > 0 && Date.now() < deadline) await sleep(10)
      expect(quotes.size).toBe(0)
    } finally {
      quotes.close()
    }
  })

  it('with the timer off (0), expired quotes stay until a sweep or a new quote', async () => {
    const clock = manualClock()
    const quotes = createQuoteStore<number>({ clock, ttlSeconds: 60, sweepIntervalMs: 0 })
    quotes.put(1)
    clock.advance(60)
    await sleep(50)
    expect(quotes.size).toBe(1)
    quotes.sweep()
    expect(quotes.size).toBe(0)
  })
})

const ACCOUNT = `0x${'11'.repeat(20)}`
const LOCK_ID = '28495709460745782471468738842403110198861416856113876472753060034123363526931'

/** An unsigned IntentOp shaped like a blanc route's, with its own nonce and amount. */
function intentOp(nonce: number, amount: string): IntentOp {
  return {
    sponsor: ACCOUNT,
    nonce: String(nonce),
    expires: '1900000000',
    targetExecutionNonce: '0',
    elements: [
      {
        arbiter: `0x${'33'.repeat(20)}`,
        chainId: '10',
        idsAndAmounts: [[LOCK_ID, amount]],
        spendTokens: [[LOCK_ID, amount]],
        mandate: {
          recipient: ACCOUNT,
          tokenOut: [[LOCK_ID, '100000000']],
          destinationChainId: '8453',
          fillDeadline: '1900000000',
          preClaimOps: { vt: `0x${'00'.repeat(32)}`, ops: [] },
          destinationOps: { vt: `0x${'00'.repeat(32)}`, ops: [] },
          qualifier: {
            settlementContext: { settlementLayer: 'INTENT_ARBITER', fundingMethod: 'COMPACT' },
            encodedVal: `0x${'ab'.repeat(200)}`,
          },
          minGas: '0',
        },
      },
    ],
    serverSignature: '0x',
    signedMetadata: {
      tokenPrices: { ETH: 3000, USDC: 1 },
      gasPrices: { '10': '711207618', '8453': '790031159' },
      account: { address: ACCOUNT, accountType: 'EOA', setupOps: [] },
      fees: { protocolFees: { [ACCOUNT]: amount } },
    },
  } as unknown as IntentOp
}

/** A stored route around {@link intentOp}, with the bigints a route's sources and outputs carry. */
function storedRoute(nonce: number, amount: string): StoredQuotedIntent {
  const op = intentOp(nonce, amount)
  return {
    intentOp: op,
    signedIntentOp: async () => op,
    fundingMethod: 'COMPACT',
    account: { address: ACCOUNT as Address, setupOps: [] },
    destinationChainId: 8453,
    originChainIds: [10],
    outputs: [{ token: ACCOUNT as Address, symbol: 'USDC', decimals: 6, amount: 100_000_000n }],
    sources: [
      [
        {
          chainId: 10,
          token: ACCOUNT as Address,
          symbol: 'USDC',
          decimals: 6,
          lockId: BigInt(LOCK_ID),
          amount: BigInt(amount),
          kind: 'SAME',
        },
      ],
    ],
    totalCostUsd: 0.669926,
    quotedAt: 1_800_000_000,
  }
}

describe('stored routes are kept compressed (createStoredQuoteCodec)', () => {
  const server = privateKeyToAccount(`0x${'42'.repeat(32)}`)

  it('decodes to the same route: same JSON, bigints, and a server signature that verifies', async () => {
    const codec = createStoredQuoteCodec(server)
    codec.encode([storedRoute(1, '1')]) // the dictionary
    const original = storedRoute(7, '100669926')
    const [, decoded] = codec.decode(codec.encode([storedRoute(6, '5'), original]))
    if (!decoded) throw new Error('no second route')
    const { signedIntentOp: _a, ...want } = original
    const { signedIntentOp, ...got } = decoded
    expect(got).toEqual(want)
    expect(typeof got.sources[0]?.[0]?.lockId).toBe('bigint')
    expect(serverSignatureDigest(got.intentOp)).toBe(serverSignatureDigest(original.intentOp))
    const signed = await signedIntentOp()
    expect(signed.serverSignature).not.toBe('0x')
    expect(await verifyServerSignature(signed, server.address)).toBe(true)
    expect(await signedIntentOp()).toBe(signed) // signed once
  })

  it("a quote's routes keep in a small fraction of their JSON, as a one-byte string", () => {
    const codec = createStoredQuoteCodec(server)
    codec.encode([storedRoute(1, '1')])
    const routes = [2, 3, 4, 5].map((n) => storedRoute(n, String(n * 100)))
    const records = routes.map(({ signedIntentOp: _, ...record }) => record)
    const json = JSON.stringify(records, (_k, v) => (typeof v === 'bigint' ? v.toString() : v))
    const data = codec.encode(routes)
    expect(data.length).toBeLessThan(json.length / 4)
    expect([...data].every((c) => c.charCodeAt(0) <= 0xff)).toBe(true)
  })

  it('a store with the codec counts each quote at its encoded size and hands back the route', () => {
    const quotes = createQuoteStore<StoredQuotedIntent>({
      clock: manualClock(),
      ttlSeconds: 300,
      codec: createStoredQuoteCodec(server),
      sweepIntervalMs: 0,
    })
    const routes = quotes.putAll([1, 2, 3].map((n) => storedRoute(n, String(n * 1000))))
    expect(routes.map((r) => r.intentId.slice(0, 32))).toEqual(
      Array(3).fill(routes[0]?.intentId.slice(0, 32)),
    )
    expect(quotes.size).toBe(3)
    expect(quotes.bytes).toBeGreaterThan(QUOTE_ENTRY_BYTES)
    expect(quotes.bytes).toBeLessThan(QUOTE_ENTRY_BYTES + 1_000)
    expect(quotes.get(routes[1]!.intentId)?.quote.intentOp.nonce).toBe('2')
    expect(quotes.list().map((stored) => stored.quote.sources[0]?.[0]?.amount)).toEqual([1000n, 2000n, 3000n])
    // Routes of one quote are consumed one by one; the group goes with its last route.
    const taken = quotes.consume(routes[0]!.intentId)
    expect(taken?.quote.intentOp.nonce).toBe('1')
    expect(quotes.get(routes[0]!.intentId)).toBeUndefined()
    expect(quotes.size).toBe(2)
    quotes.consume(routes[1]!.intentId)
    quotes.consume(routes[2]!.intentId)
    expect(quotes.bytes).toBe(0)
    quotes.restore(taken!)
    expect(quotes.get(routes[0]!.intentId)?.quote.intentOp.nonce).toBe('1')
    expect(quotes.get(routes[1]!.intentId)).toBeUndefined()
    expect(quotes.size).toBe(1)
  })
})
