import { afterAll, beforeAll, expect, test } from 'vitest'
import type { DevnetService } from '../devnet/devnetService'
import type { IntentService } from '../intents/types'
import type { WithdrawalService } from '../withdrawals/types'
import { ApiError } from './errorCodes'
import { ALPS, BLANC, blancSubmit, headers, signedIntentOp, testApp, withdrawal } from './testing/fixtures'

// In-memory services standing in for later issues' modules: these tests prove the routes hand
// validated input to `app.services` and answer with what the service returns or throws.
const calls: unknown[] = []
const withdrawals: WithdrawalService = {
  async withdraw(request) {
    calls.push(request)
    return { allocatorData: '0xabcd', transferDetails: { id: 1, nonce: 2, expires: 3, recipients: [] } }
  },
  async batchWithdraw() {
    return { allocatorData: 'not hex', batchTransferDetails: { nonce: 1, expires: 2, transfers: [] } }
  },
}
const simulation = {
  wouldSettle: false,
  reason: 'claim on chain 10: reverted',
  steps: [{ step: 'claim' as const, chainId: 10, ok: false, error: 'reverted' }],
}
const intents: IntentService = {
  async submitOperation(signedIntentOp) {
    calls.push({ submitOperation: signedIntentOp.nonce })
    return { id: '42', status: 'PENDING' }
  },
  async simulateOperation(signedIntentOp) {
    calls.push({ simulateOperation: signedIntentOp.nonce })
    return simulation
  },
  async submitQuoted(intentId, signatures) {
    if (intentId === 'expired')
      throw new ApiError('NOT_FOUND', 'Quote expired has expired; request a new quote.')
    calls.push({ intentId, signatures })
    return { id: '7', status: 'PENDING' }
  },
  async simulateQuoted(intentId, signatures) {
    calls.push({ simulateQuoted: intentId, signatures })
    return simulation
  },
  async getIntent() {
    return undefined
  },
  async findIntent() {
    return undefined
  },
}
const snapshots = new Set<string>()
let now = 1_800_000_000
const devnet: DevnetService = {
  manifest: () => {
    throw new Error('unused')
  },
  async advanceClock(seconds) {
    now += seconds
    return { now }
  },
  async snapshot() {
    snapshots.add('0x1')
    return { id: '0x1' }
  },
  async revert(id) {
    return snapshots.delete(id)
  },
  async health() {
    return {
      chains: [
        { chainId: 1, up: true },
        { chainId: 10, up: false },
      ],
    }
  },
}

let t: Awaited<ReturnType<typeof testApp>>
beforeAll(async () => {
  t = await testApp({}, { withdrawals, intents, devnet })
})
afterAll(() => t.app.close())

test('a route hands the validated body (unknown fields stripped) to its service and answers its result', async () => {
  calls.length = 0
  const r = await t.request({
    method: 'POST',
    url: '/withdrawals',
    headers: headers(ALPS),
    payload: { ...withdrawal, extra: 1 },
  })
  expect(r.status).toBe(200)
  expect(r.json.allocatorData).toBe('0xabcd')
  expect(calls).toEqual([withdrawal])
})

test('a service answer that breaks its response schema is a 500 of ours, not the caller’s', async () => {
  const r = await t.request({
    method: 'POST',
    url: '/batch-withdrawals',
    headers: headers(BLANC),
    payload: {
      account: withdrawal.account,
      chainId: 1,
      transfers: [{ recipient: withdrawal.account, tokenAddress: withdrawal.tokenAddress, amount: '5' }],
    },
  })
  expect(r.status).toBe(500)
  expect(r.json.code).toBe('INTERNAL_ERROR')
})

test('blanc submit: the path id and the public alias reach the same service; an ApiError keeps its code', async () => {
  calls.length = 0
  const spec = await t.request({
    method: 'POST',
    url: '/intents/q1/submit',
    headers: headers(BLANC),
    payload: blancSubmit,
  })
  const alias = await t.request({
    method: 'POST',
    url: '/intents',
    headers: headers(BLANC),
    payload: { intentId: 'q1', ...blancSubmit },
  })
  expect([spec.status, alias.status]).toEqual([201, 201])
  // The service's version-neutral answer, shaped at the edge into blanc's.
  expect([spec.json, alias.json]).toEqual([
    { intentId: 'q1', id: '7', status: 'PENDING' },
    { intentId: 'q1', id: '7', status: 'PENDING' },
  ])
  const signatures = { originSignatures: ['0x01'], destinationSignature: '0x02' }
  expect(calls).toEqual([
    { intentId: 'q1', signatures },
    { intentId: 'q1', signatures },
  ])
  const expired = await t.request({
    method: 'POST',
    url: '/intents/expired/submit',
    headers: headers(BLANC),
    payload: blancSubmit,
  })
  expect(expired.status).toBe(404)
  expect(expired.json).toMatchObject({
    code: 'NOT_FOUND',
    message: 'Quote expired has expired; request a new quote.',
  })
})

test('a dry run reaches the simulation, never the submission, and is answered in each version', async () => {
  calls.length = 0
  const dryRun = { options: { dryRun: true } }
  const blanc = await t.request({
    method: 'POST',
    url: '/intents/q2/submit',
    headers: headers(BLANC),
    payload: { ...blancSubmit, ...dryRun },
  })
  const alps = await t.request({
    method: 'POST',
    url: '/intent-operations',
    headers: headers(ALPS),
    payload: { signedIntentOp: { ...signedIntentOp.signedIntentOp, ...dryRun } },
  })
  const submitted = await t.request({
    method: 'POST',
    url: '/intent-operations',
    headers: headers(ALPS),
    payload: signedIntentOp,
  })
  expect([blanc.status, alps.status, submitted.status]).toEqual([201, 201, 201])
  const answered = { status: 'DRY_RUN', dryRun: true, ...simulation }
  expect(blanc.json).toEqual({ intentId: 'q2', ...answered })
  expect(alps.json).toEqual({ result: { id: '0', ...answered } })
  expect(submitted.json).toEqual({ result: { id: '42', status: 'PENDING' } })
  expect(calls).toEqual([
    { simulateQuoted: 'q2', signatures: { originSignatures: ['0x01'], destinationSignature: '0x02' } },
    { simulateOperation: '1' },
    { submitOperation: '1' },
  ])
})

test('status of an unknown intent → 404', async () => {
  const r = await t.request({ method: 'GET', url: '/intent-operation/77', headers: headers(ALPS) })
  expect(r.status).toBe(404)
  expect(r.json.errors[0].message).toBe('No intent operation 77.')
})

test('/health reports the chains and is degraded when one is down', async () => {
  const r = await t.request({ method: 'GET', url: '/health' })
  expect(r.json).toEqual({
    status: 'degraded',
    chains: [
      { chainId: 1, up: true },
      { chainId: 10, up: false },
    ],
  })
})

test('/_devnet/ clock, snapshot and revert go to the devnet service; an unknown snapshot → 404', async () => {
  const advanced = await t.request({
    method: 'POST',
    url: '/_devnet/clock/advance',
    headers: headers(),
    payload: { seconds: 60 },
  })
  expect(advanced.json).toEqual({ now: 1_800_000_060 })
  const bad = await t.request({
    method: 'POST',
    url: '/_devnet/clock/advance',
    headers: headers(),
    payload: { seconds: -5 },
  })
  expect(bad.status).toBe(400)
  const { id } = (await t.request({ method: 'POST', url: '/_devnet/snapshot', headers: headers() })).json
  expect(
    (await t.request({ method: 'POST', url: '/_devnet/revert', headers: headers(), payload: { id } })).json,
  ).toEqual({ reverted: true, id })
  expect(
    (await t.request({ method: 'POST', url: '/_devnet/revert', headers: headers(), payload: { id } })).status,
  ).toBe(404)
})
