import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { FAULT_CATALOGUE, type FaultName } from '../simulator/faults/faults'
import { runConformance } from './runner/runConformance'
import { type LocalTarget, startLocalTarget } from './runner/startLocalTarget'
import { type LoadedScenario, loadScenarios } from './scenario/loadScenarios'

/**
 * For each fault the simulator can inject, the checks that must catch it. A fault added to the
 * catalogue without a check here fails the first test.
 */
const CAUGHT_BY: Record<FaultName, string[]> = {
  'version.missing-as-blanc': [
    // Serving a header-less request as blanc is allowed (MUST passes); alps by default is SHOULD.
    'versioning.missing-header/2/any of',
    'versioning.missing-header-blanc-path/2/any of',
  ],
  'version.accept-unknown': ['versioning.unknown-version/1/status', 'versioning.unknown-version/1/reason'],
  'version.accept-malformed': [
    'versioning.malformed-header/1/status',
    'versioning.malformed-header/1/reason',
  ],
  'version.serve-other-version-paths': ['versioning.version-paths-blanc/2/status'],
  'auth.accept-missing-key': ['authentication.missing-key/1/status'],
  'auth.accept-wrong-key': ['authentication.wrong-key/1/status'],
  'auth.control-api-open': ['authentication.control-api/1/status'],
  'limits.accept-11-ops': ['limits.ops-per-chain/2/status'],
  'limits.accept-6-chains': ['limits.chains/2/status'],
  'limits.refuse-10-ops': ['limits.ops-per-chain/1/any of'],
  'errors.omit-code': ['errors.envelopes/1/should envelope blanc', 'errors.envelopes/1/should body /code'],
  'errors.no-trace-id': ['errors.trace-ids/1/header x-trace-id'],
  'errors.trace-id-mismatch': ['errors.envelopes/1/should envelope blanc'],
  'errors.alps-as-blanc': [
    'versioning.known-versions/1/should envelope alps',
    'settlement.alps-lifecycle/7/should envelope alps',
    'settlement.alps-tampered/7/should envelope alps',
  ],
  'errors.5xx-on-malformed-json': ['bad-input.malformed-json/1/status'],
  'errors.5xx-on-oversized-body': ['bad-input.oversized-body/1/status'],
  'input.accept-negative-amount': ['bad-input.negative-amounts/1/status'],
  'input.accept-over-uint256': ['bad-input.huge-numbers/1/status'],
  'input.5xx-on-wrong-types': ['bad-input.wrong-types/1/status'],
  'deposits.setup-ignores-null': ['deposit-processor.partial-update/6/body /maxPriceDeviationBps'],
  'deposits.ignore-whitelist': ['deposits.token-3/4/webhook bridge-failed'],
  'deposits.wrong-error-code': [
    'deposits.token-3/4/webhook body **',
    'deposits.balance-3/10/webhook body **',
    'deposits.bridge-5/5/webhook body **',
  ],
  'webhooks.wrong-secret': ['webhooks.signed/4/webhook bridge-failed signature'],
  'webhooks.sign-without-secret': ['webhooks.unsigned/4/webhook bridge-failed signature'],
  'webhooks.drop-signature': ['webhooks.signed/4/webhook bridge-failed signature'],
  'quotes.no-404-after-expiry': ['quotes.blanc-quote-expiry/5/status'],
  'quotes.malformed-field': ['quotes.blanc-route-schema/1/schema BlancRouteResponse'],
  'intents.accept-duplicate': ['settlement.blanc-lifecycle/7/status'],
  'intents.alps-accept-duplicate': ['settlement.alps-lifecycle/7/status'],
  'intents.accept-tampered': ['settlement.alps-tampered/7/status'],
  'intents.settle-refused-tampered': [`settlement.alps-tampered/16/balance $\{fresh.0.address} on 8453`],
  'intents.skip-claims': [
    'settlement.blanc-lifecycle/5/body /status',
    'settlement.alps-lifecycle/4/body /status',
  ],
  // The account's wallet, read before the submit and after COMPLETED, moved by the signed input less the refund.
  'intents.refund-sponsor-one-unit': [`settlement.alps-permit2/12/balance $\{fresh.0.address} on 10`],
  'withdrawals.bad-allocator-signature': ['withdrawals.single-executed/2/allocatedTransfer on 8453'],
  'quotes.access-list-tokens-inverted': [
    'quotes.access-allow-tokens/1/body /routes',
    'quotes.access-exclude-tokens/1/status',
    'quotes.access-allow-chain-tokens/1/body /routes',
    'quotes.access-exclude-chain-tokens/1/status',
  ],
  'quotes.access-list-ignore-chains': [
    'quotes.access-allow-chains/1/body /routes',
    'quotes.access-exclude-chains/1/body /routes',
    'quotes.alps-access-allow-chains/1/body /intentOp/elements',
  ],
  'quotes.routes-most-expensive-first': ['quotes.blanc-routes-by-cost/1/body /routes'],
  'quotes.fee-total-mismatch': [
    'quotes.alps-fee-parts/1/body /intentCost/tokensReceived',
    'quotes.alps-fee-parts/1/body /intentCost/feeBreakdownUSD/totalFeeUSD',
  ],
  'quotes.negative-fee-part': [
    'quotes.alps-fee-parts/1/body /intentCost/tokensReceived',
    'quotes.alps-fee-parts/1/body /intentCost/feeBreakdownUSD/swapFeeUSD',
    'quotes.blanc-fee-parts/1/body /routes',
  ],
  'quotes.expires-before-fill-deadline': [
    'quotes.alps-deadlines/1/body /intentOp/elements/0/mandate/fillDeadline',
  ],
  'quotes.deadlines-in-the-past': [
    'quotes.alps-deadlines/1/body /intentOp/expires',
    'quotes.alps-deadlines/1/body /intentOp/elements',
  ],
  'quotes.drop-destination-executions': [
    `settlement.alps-destination-executions/16/balance $\{fresh.1.address} on 8453`,
  ],
  'quotes.drop-pre-claim-executions': [
    'quotes.alps-pre-claim-executions/1/body /intentOp/elements',
    // Read back on Optimism: the recorder the pre-claim call goes to was never called.
    `settlement.alps-destination-executions/11/callCount() of $\{recorder} on 10`,
  ],
  'quotes.balance-from-allowance': ['quotes.alps-underfunded/7/body /intentCost/hasFulfilledAll'],
  'quotes.invert-has-fulfilled': [
    'quotes.alps-underfunded/4/body /intentCost/tokensReceived/0/hasFulfilled',
    'quotes.alps-underfunded-tokens/4/body /intentCost/tokensReceived/1/hasFulfilled',
  ],
  'quotes.shortfall-on-covered': [
    'quotes.alps-underfunded-tokens/4/body /intentCost/tokensReceived/0/hasFulfilled',
  ],
  'intents.skip-signature-check': [
    'settlement.alps-wrong-signer/9/status',
    // A wrong destination signature without destination calls (blanc signs signData.destination).
    'settlement.blanc-wrong-signer/9/status',
    // A smart account's signature by a key that does not own it (ERC-1271 refuses it).
    'settlement.smart-account-wrong-signer/6/status',
    'settlement.smart-account-wrong-signer-blanc/8/status',
  ],
  'withdrawals.refuse-exact-balance': ['withdrawals.exact-balance/5/status'],
  'withdrawals.sign-over-balance': ['withdrawals.exact-balance/4/status'],
  'deposits.refuse-equal-bounds': ['deposits.single-amount/1/status'],
}

/**
 * Faults that stall a scenario rather than answer wrongly: nothing decides the outcome before
 * the scenario's time limit, so their runs get a shorter one, and the test makes sure from the
 * last answers that the fault stalled them (not a slow settlement): `stalled` holds for the body
 * of every caught check.
 */
const STALLS: Partial<Record<FaultName, { timeoutSeconds: number; stalled: (body: unknown) => boolean }>> = {
  // FILLED with no claim transaction: the simulator otherwise records FILLED together with its
  // claims' transactions (simulator/settlement/settleIntent.ts), so no reader sees it slow.
  'intents.skip-claims': { timeoutSeconds: 5, stalled: (body) => filledWithoutClaims(body) },
}

/** An alps or blanc status body: FILLED, its fill sent, and no claim with a transaction. */
function filledWithoutClaims(body: unknown): boolean {
  const status = body as {
    status?: string
    fillTransactionHash?: string | null
    claims?: { claimTransactionHash?: string | null }[]
    operations?: { items?: { type?: string; txHash?: string | null }[] }[]
  }
  if (status.status !== 'FILLED') return false
  if (status.claims)
    return !!status.fillTransactionHash && status.claims.every((c) => !c.claimTransactionHash)
  const items = (status.operations ?? []).flatMap((o) => o.items ?? [])
  return (
    items.some((i) => i.type === 'FILL' && !!i.txHash) &&
    items.filter((i) => i.type === 'CLAIM').every((i) => !i.txHash)
  )
}

let local: LocalTarget
let scenarios: LoadedScenario[]

beforeAll(async () => {
  local = await startLocalTarget()
  scenarios = await loadScenarios()
})
afterAll(() => local?.stop())

async function setFaults(enable: string[]) {
  const response = await fetch(`${local.target}/_devnet/faults`, {
    method: 'POST',
    headers: { 'x-api-key': local.apiKey, 'content-type': 'application/json' },
    body: JSON.stringify({ clear: true, enable }),
  })
  expect(response.status).toBe(200)
}

const run = (only?: readonly string[], timeoutSeconds = 15) =>
  runConformance({
    target: local.target,
    apiKey: local.apiKey,
    // A fault runs only the scenarios of its checks (the run without faults runs them all).
    scenarios: only ? scenarios.filter((s) => only.some((id) => id.startsWith(`${s.id}/`))) : scenarios,
    // Every scenario takes a few seconds on this simulator; a fault that stalls one (e.g. claims
    // never sent) fails at this limit instead of the default minute.
    timeoutSeconds,
    // SHOULD checks (trace ids, envelopes, 401 on a wrong key) count as failures too.
    strict: true,
  })

describe('the packs catch every fault of the simulator', () => {
  test('every fault of the catalogue has checks that catch it', () => {
    expect(Object.keys(CAUGHT_BY).sort()).toEqual(Object.keys(FAULT_CATALOGUE).sort())
  })

  test('without faults, every applicable check passes', async () => {
    await setFaults([])
    const result = await run()
    const failed = result.scenarios.flatMap((s) => s.checks.filter((c) => c.status === 'failed'))
    expect(failed.map((c) => `${c.id}: ${c.message}`)).toEqual([])
    expect(result.summary.checks.total).toBeGreaterThan(100)
    // The deposit and webhook packs ran (the local simulator has chains and the control API).
    const ran = new Set(result.scenarios.filter((s) => s.status === 'passed').map((s) => s.pack))
    for (const pack of ['deposits', 'webhooks', 'deposit-processor']) expect(ran).toContain(pack)
    expect(result.summary.unexpected).toBe(0)
  })

  for (const [fault, checks] of Object.entries(CAUGHT_BY)) {
    test(`${fault} is caught by ${checks.join(', ')}`, async () => {
      await setFaults([fault])
      const stall = STALLS[fault as FaultName]
      try {
        const result = await run(checks, stall?.timeoutSeconds)
        const failed = result.scenarios.flatMap((s) =>
          s.checks.filter((c) => c.status === 'failed').map((c) => c.id),
        )
        for (const id of checks) expect(failed, `${id} should fail with ${fault} on`).toContain(id)
        if (stall)
          for (const check of result.scenarios.flatMap((s) => s.checks))
            if (checks.includes(check.id))
              expect(
                stall.stalled(JSON.parse(check.exchange?.response?.body ?? 'null') ?? {}),
                `${check.id} should have stalled: ${check.exchange?.response?.body}`,
              ).toBe(true)
        expect(result.summary.unexpected).toBeGreaterThan(0)
        // Each failure names the spec section it enforces.
        for (const scenario of result.scenarios)
          for (const check of scenario.checks) expect(check.spec.length).toBeGreaterThan(0)
      } finally {
        await setFaults([])
      }
    })
  }
})
