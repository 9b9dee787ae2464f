import { setTimeout as sleep } from 'node:timers/promises'
import { privateKeyToAccount } from 'viem/accounts'
import { describe, expect, it } from 'vitest'
import type { IntentOp } from '../../spec'
import { serverSignatureDigest, signServerSignature, verifyServerSignature } from '../signing/serverSignature'
import { createQuoteStore } from './quoteStore'
import { compactIntentOp, createSharedValues } from './toStoredQuote'

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

describe('stored routes share their repeated parts', () => {
  it('a compact IntentOp is the same JSON, with the same server-signature digest', async () => {
    const original = intentOp(7, '100669926')
    const compact = compactIntentOp(original, createSharedValues())
    expect(JSON.stringify(compact)).toBe(JSON.stringify(original))
    expect(serverSignatureDigest(compact)).toBe(serverSignatureDigest(original))
    const server = privateKeyToAccount(`0x${'42'.repeat(32)}`)
    const signed = { ...compact, serverSignature: await signServerSignature(compact, server) }
    expect(await verifyServerSignature(signed, server.address)).toBe(true)
  })

  it('two routes hold one instance of what they have in common, not of what differs', () => {
    const shared = createSharedValues()
    const a = compactIntentOp(intentOp(1, '100'), shared)
    const b = compactIntentOp(intentOp(2, '200'), shared)
    expect(b.signedMetadata.tokenPrices).toBe(a.signedMetadata.tokenPrices)
    expect(b.signedMetadata.account).toBe(a.signedMetadata.account)
    expect(b.elements[0]?.mandate.qualifier).toBe(a.elements[0]?.mandate.qualifier)
    expect(b.elements[0]?.idsAndAmounts?.[0]?.[0]).toBe(a.elements[0]?.idsAndAmounts?.[0]?.[0])
    expect(b.signedMetadata.fees).not.toBe(a.signedMetadata.fees)
    expect(b.signedMetadata.fees).toEqual({ protocolFees: { [ACCOUNT]: '200' } })
  })

  it('the table is bounded: values not seen again are forgotten', () => {
    const shared = createSharedValues(10)
    for (let i = 0; i < 1_000; i++) shared.same({ unique: i })
    expect(shared.size).toBeLessThanOrEqual(20)
    // A value used within every generation survives the turnover.
    const kept = shared.same({ kept: true })
    for (let i = 0; i < 100; i++) {
      shared.same({ unique: `again-${i}` })
      if (i % 5 === 0) expect(shared.same({ kept: true })).toBe(kept)
    }
  })
})
