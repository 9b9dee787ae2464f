import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import {
  AlpsErrorEnvelope,
  BlancErrorEnvelope,
  DepositProcessorParams,
  IntegerString,
  IntentCost,
  PRE_CLAIM_MAX_CHAINS,
  PRE_CLAIM_MAX_OPS_PER_CHAIN,
  RouteRequest,
  specSchemas,
  WebhookEnvelope,
  WithdrawalRequest,
} from '.'

const execution = { to: `0x${'11'.repeat(20)}`, value: '0', data: '0x' }
const baseRequest = {
  destinationChainId: 8453,
  tokenRequests: [{ tokenAddress: `0x${'22'.repeat(20)}`, amount: '1000000' }],
  account: { address: `0x${'33'.repeat(20)}`, accountType: 'EOA' },
}

function issues(result: {
  success: boolean
  error?: { issues: { path: PropertyKey[]; message: string }[] }
}) {
  return (result.error?.issues ?? []).map((issue) => `${issue.path.join('.')}: ${issue.message}`)
}

describe('RouteRequest limits (spec: Limits)', () => {
  const ops = (n: number) => Array.from({ length: n }, () => execution)
  const chains = (n: number) =>
    Object.fromEntries(Array.from({ length: n }, (_, i) => [String(i + 1), ops(1)]))

  it(`accepts ${PRE_CLAIM_MAX_OPS_PER_CHAIN} operations on a chain and refuses one more, naming the limit`, () => {
    expect(RouteRequest.safeParse({ ...baseRequest, preClaimExecutions: { '1': ops(10) } }).success).toBe(
      true,
    )
    expect(
      issues(RouteRequest.safeParse({ ...baseRequest, preClaimExecutions: { '1': ops(11) } })),
    ).toMatchInlineSnapshot(`
      [
        "preClaimExecutions.1: preClaimExecutions allows at most 10 operations per chain",
      ]
    `)
  })

  it(`accepts ${PRE_CLAIM_MAX_CHAINS} chains and refuses a sixth, naming the limit`, () => {
    expect(RouteRequest.safeParse({ ...baseRequest, preClaimExecutions: chains(5) }).success).toBe(true)
    expect(
      issues(RouteRequest.safeParse({ ...baseRequest, preClaimExecutions: chains(6) })),
    ).toMatchInlineSnapshot(`
      [
        "preClaimExecutions: preClaimExecutions allows at most 5 chains",
      ]
    `)
  })
})

describe('patterns and numbers', () => {
  it('names every failing field by path', () => {
    const result = RouteRequest.safeParse({
      destinationChainId: -1,
      tokenRequests: [{ tokenAddress: '0x12', amount: '-5' }],
      account: { address: 'not-an-address' },
    })
    expect(issues(result)).toMatchInlineSnapshot(`
      [
        "destinationChainId: must not be negative",
        "tokenRequests.0.tokenAddress: must be a 0x-prefixed 20-byte hex address",
        "tokenRequests.0.amount: must be a base-10 integer string (digits only)",
        "account.address: must be a 0x-prefixed 20-byte hex address",
      ]
    `)
  })

  it('refuses integers past uint256 and unsafe JSON numbers', () => {
    expect(IntegerString.safeParse((2n ** 256n - 1n).toString()).success).toBe(true)
    expect(IntegerString.safeParse((2n ** 256n).toString()).success).toBe(false)
    expect(IntegerString.safeParse('9'.repeat(500)).success).toBe(false)
    const base = {
      account: baseRequest.account.address,
      chainId: 1,
      tokenAddress: execution.to,
      recipient: execution.to,
    }
    expect(WithdrawalRequest.safeParse({ ...base, amount: 1e30 }).success).toBe(false)
    expect(WithdrawalRequest.safeParse({ ...base, amount: '1000000000000000000000000000000' }).success).toBe(
      true,
    )
    expect(WithdrawalRequest.safeParse({ ...base, amount: 0 }).success).toBe(false)
  })

  it("IntentCost's tokensReceived numbers: a JSON number, or its exact string past 2^53 only (spec: Resources › IntentCost types them number)", () => {
    const item = (amount: unknown) => ({
      hasFulfilledAll: true,
      tokensSpent: {},
      tokensReceived: [
        {
          tokenAddress: execution.to,
          amountSpent: amount,
          targetAmount: amount,
          fee: amount,
          feeBreakdown: { gasFee: '0', bridgeFee: '0', protocolFee: '0', swapFee: '0', settlementFee: '0' },
          feesByToken: {},
          hasFulfilled: true,
        },
      ],
    })
    const received = (amount: unknown) =>
      IntentCost.shape.tokensReceived.safeParse(item(amount).tokensReceived).success
    expect(received(1500000)).toBe(true)
    // What the runner's exact reader makes of a JSON number past 2^53.
    expect(received('9007199254740993')).toBe(true)
    // Within 2^53 a string is a JSON string on the wire, not the spec's number.
    expect(received('1500000')).toBe(false)
    expect(received('-1')).toBe(false)
  })

  it('accepts the chain id as a string, as the public SDK sends it', () => {
    expect(RouteRequest.safeParse({ ...baseRequest, destinationChainId: '8453' }).success).toBe(true)
  })

  it('ignores unknown request fields (spec: Versioning §4)', () => {
    const parsed = RouteRequest.parse({ ...baseRequest, somethingNew: true })
    expect('somethingNew' in parsed).toBe(false)
  })
})

describe('deposit-processor params (spec: Deposit-processor configuration)', () => {
  it('allows null to clear strings and {} to clear objects', () => {
    expect(
      DepositProcessorParams.safeParse({
        webhookUrl: null,
        webhookSecret: null,
        maxPriceDeviationBps: null,
        sponsorship: {},
        depositWhitelist: {},
      }).success,
    ).toBe(true)
  })

  it('checks CAIP-2 keys, bounds order and the bps range', () => {
    const result = DepositProcessorParams.safeParse({
      webhookUrl: 'ftp://example.test',
      sponsorship: { '8453': { gas: 'all' } },
      depositWhitelist: { 'eip155:8453': [{ token: execution.to, minAmount: '10', maxAmount: '9' }] },
      maxPriceDeviationBps: 10_001,
    })
    expect(issues(result)).toMatchInlineSnapshot(`
      [
        "webhookUrl: must be an http or https URL",
        "sponsorship.8453: key '8453' must be a CAIP-2 chain id of the form eip155:<chain_id>",
        "depositWhitelist.eip155:8453.0.minAmount: minAmount must not exceed maxAmount",
        "maxPriceDeviationBps: Too big: expected number to be <=10000",
      ]
    `)
  })
})

describe('response schemas accept unknown fields (spec: Versioning §6)', () => {
  it('keeps unknown fields of envelopes and events', () => {
    expect(AlpsErrorEnvelope.parse({ errors: [{ message: 'x' }], traceId: 't', extra: 1 })).toHaveProperty(
      'extra',
    )
    expect(
      BlancErrorEnvelope.parse({ code: 'NOT_FOUND', message: 'x', traceId: 't', extra: 1 }),
    ).toHaveProperty('extra')
    expect(
      WebhookEnvelope.safeParse({
        version: '1.0',
        type: 'bridge-failed',
        eventId: 'e1',
        time: new Date().toISOString(),
        data: {},
        newField: 'x',
      }).success,
    ).toBe(true)
  })
})

describe('every schema cites its spec section', () => {
  it('has a doc comment naming the spec, the facts or the design on each exported schema', () => {
    const missing: string[] = []
    for (const file of readdirSync(__dirname).filter((f) => f.endsWith('.ts') && !f.endsWith('.test.ts'))) {
      if (file === 'index.ts') continue
      const source = readFileSync(join(__dirname, file), 'utf8')
      for (const match of source.matchAll(/((?:\/\*\*[\s\S]*?\*\/\n)?)export const ([A-Z]\w*) = /g)) {
        const [, doc, name] = match
        if (!/spec:|facts|DESIGN|spec\b/i.test(doc ?? '')) missing.push(`${file}: ${name}`)
      }
    }
    expect(missing).toEqual([])
  })

  it('registers every schema under its name with a section', () => {
    for (const [name, entry] of Object.entries(specSchemas)) {
      expect(entry.section, name).toMatch(/\S/)
    }
  })
})
