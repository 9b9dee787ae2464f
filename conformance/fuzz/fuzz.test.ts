import { mkdtemp, readFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { parse } from 'yaml'
import { runConformance } from '../runner/runConformance'
import { type LocalTarget, startLocalTarget } from '../runner/startLocalTarget'
import type { HttpStep } from '../scenario/schema'
import type { PropertyName } from './properties'
import { runFuzz } from './runFuzz'

/**
 * The fuzzer against the simulator: a clean one gives no finding within a budget of a few
 * thousand requests; with a fault of the catalogue enabled it finds it, and the scenario it
 * writes fails with the fault and passes without it. One simulator for the file; the faults are
 * enabled through its control API, as any user would.
 */

let local: LocalTarget
const SEED = 20261126

beforeAll(async () => {
  local = await startLocalTarget()
}, 60_000)
afterAll(async () => {
  await local?.stop()
})

async function faults(body: { enable?: string[]; clear?: boolean }) {
  const response = await fetch(new URL('/_devnet/faults', local.target), {
    method: 'POST',
    headers: { 'x-api-key': local.apiKey, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  })
  expect(response.status).toBe(200)
}

const replay = async (dir: string) =>
  runConformance({ target: local.target, apiKey: local.apiKey, scenariosDir: join(dir, 'findings') })

describe('intent-devnet fuzz against the simulator', () => {
  test('a clean simulator: no finding in 2000 requests and 3 sequences; the report states the seed and the coverage', async () => {
    const out = await mkdtemp(join(tmpdir(), 'fuzz-clean-'))
    const run = await runFuzz({
      target: local.target,
      apiKey: local.apiKey,
      seed: SEED,
      budget: 2000,
      statefulRuns: 3,
      out,
    })
    expect(run.findings.map((f) => `${f.key}: ${f.message}`)).toEqual([])
    const report = JSON.parse(await readFile(join(out, 'report.json'), 'utf8'))
    expect(report.seed).toBe(SEED)
    expect(report.requests.stateless).toBeGreaterThanOrEqual(1500)
    // The budget bounds every request sent, and the report counts them by what for.
    const { probes, stateless, shrinking, stateful, total } = report.requests
    expect(report.requests.budget).toBe(2000)
    expect(total).toBe(probes + stateless + shrinking + stateful)
    expect(total).toBeLessThanOrEqual(2000)
    expect(report.statefulSequences).toBeGreaterThanOrEqual(3)
    // Every route of the table is reached, and the properties are checked on it.
    expect(Object.keys(report.coverage).sort()).toEqual(
      expect.arrayContaining([
        'batchWithdraw',
        'depositSetup',
        'portfolio',
        'quote',
        'submitOperation',
        'submitQuoted',
        'withdraw',
      ]),
    )
    expect(Object.keys(report.coverage.quote.properties)).toEqual(
      expect.arrayContaining([
        'invalid-input',
        'response-schema',
        'key-required',
        'limit-over',
        'limit-at-value',
      ]),
    )
    const junit = await readFile(join(out, 'junit.xml'), 'utf8')
    expect(junit).toContain(`<property name="seed" value="${SEED}"/>`)
    // Routes × statuses × properties: the statuses of each route, a test case per route and property.
    expect(junit).toMatch(/<property name="statuses quote" value="[^"]*400×\d+/)
    expect(junit).toContain('<testcase classname="fuzz.quote" name="quote: limit-over (')
  }, 90_000)

  test('the same seed against the same target sends the same requests', async () => {
    const sent = async () => {
      const steps: HttpStep[] = []
      const out = await mkdtemp(join(tmpdir(), 'fuzz-same-'))
      await runFuzz({
        target: local.target,
        apiKey: local.apiKey,
        seed: 7,
        budget: 150,
        phases: ['stateless'],
        out,
        onRequest: (s) => steps.push(s),
      })
      return steps.map((s) => JSON.stringify(s.http)).sort()
    }
    const [a, b] = [await sent(), await sent()]
    // The budget of 150 holds the probes of which routes are served too (one a route).
    expect(a.length).toBeGreaterThanOrEqual(120)
    expect(b).toEqual(a)
  }, 60_000)

  test('shards partition the generated requests and sequences: together they are the unsharded run, none twice', async () => {
    const run = async (shard?: { index: number; total: number }) => {
      const requests: string[] = []
      const sequences: string[] = []
      const out = await mkdtemp(join(tmpdir(), 'fuzz-shard-'))
      const result = await runFuzz({
        target: local.target,
        apiKey: local.apiKey,
        seed: 11,
        budget: 500,
        statefulRuns: 3,
        // Sequences of quotes and withdrawals only: their generation is what is partitioned.
        phases: ['stateless', 'stateful'],
        shard,
        out,
        onRequest: (s) => requests.push(JSON.stringify(s.http)),
        onSequence: (n, commands) => sequences.push(`${n}: ${commands}`),
      })
      expect(result.findings.map((f) => f.key)).toEqual([])
      expect(result.report.requests.total).toBeLessThanOrEqual(500)
      return { requests, sequences }
    }
    const whole = await run()
    const shards = [
      await run({ index: 1, total: 3 }),
      await run({ index: 2, total: 3 }),
      await run({ index: 3, total: 3 }),
    ]
    expect(whole.requests.length).toBeGreaterThan(300)
    for (const shard of shards) expect(shard.requests.length).toBeGreaterThan(0)
    expect(shards.flatMap((s) => s.requests).sort()).toEqual([...whole.requests].sort())
    expect(shards.flatMap((s) => s.sequences).sort()).toEqual([...whole.sequences].sort())
    // The model's 3, then the sender's own one (a quarter of them, at least one).
    expect(whole.sequences).toHaveLength(4)
    expect(whole.sequences.at(-1)).toMatch(/^3: send\(/)
  }, 240_000)

  test('deposits and webhooks: sequences deposit on chain and follow the deposit to its exact payout', async () => {
    const out = await mkdtemp(join(tmpdir(), 'fuzz-deposits-'))
    const run = await runFuzz({
      target: local.target,
      apiKey: local.apiKey,
      seed: SEED,
      budget: 1000,
      statefulRuns: 8,
      phases: ['stateful'],
      out,
    })
    expect(run.findings.map((f) => `${f.key}: ${f.message}`)).toEqual([])
    expect(run.report.statefulLeftOut.filter((why) => /deposit|webhook/.test(why))).toEqual([])
    const checked = (route: string) =>
      Object.entries(run.report.coverage[route]?.properties ?? {})
        .filter(([, counts]) => (counts?.checked ?? 0) > 0)
        .map(([property]) => property)
    expect(checked('depositProcessor')).toEqual(
      expect.arrayContaining(['deposit-webhook', 'deposit-settled-exactly']),
    )
    expect(checked('depositList')).toEqual(expect.arrayContaining(['deposit-status-forward', 'deposit-once']))
    expect(run.report.coverage.depositList?.statuses).toHaveProperty('200')
  }, 180_000)

  test("the sender's side: its own quotes, alps and blanc, through Permit2 and a Compact lock, move its wallet and lock by exactly the quoted input", async () => {
    const sequences: string[] = []
    const out = await mkdtemp(join(tmpdir(), 'fuzz-sender-'))
    // Seed 7: the three sender's sequences of a run of 9 (after the model's 9) quote in both
    // versions, funded both ways, on one chain and across chains.
    const run = await runFuzz({
      target: local.target,
      apiKey: local.apiKey,
      seed: 7,
      budget: 1000,
      statefulRuns: 9,
      phases: ['stateful'],
      out,
      onSequence: (n, commands) => sequences.push(`${n}: ${commands}`),
    })
    expect(run.findings.map((f) => `${f.key}: ${f.message}`)).toEqual([])
    const sends = sequences.filter((s) => /^\d+: send\(/.test(s))
    expect(sends.map((s) => s.split(':')[0])).toEqual(['9', '10', '11'])
    const sent = sends.join(', ')
    for (const version of ['alps', 'blanc'])
      for (const method of ['PERMIT2', 'COMPACT'])
        expect(sent).toMatch(new RegExp(`send\\(${version}, [^)]*, ${method}\\)`))
    expect(sent).toMatch(/send\(\w+, 10 → 8453/)
    for (const route of ['operationStatus', 'intentStatus'])
      expect(run.report.coverage[route]?.properties['settled-exactly']).toMatchObject({ failed: 0 })
  }, 120_000)

  test('the budget bounds every request: a finding near its end is shrunk with what is left, never past it', async () => {
    await faults({ clear: true, enable: ['input.5xx-on-wrong-types'] })
    try {
      for (const budget of [60, 250]) {
        const run = await runFuzz({
          target: local.target,
          apiKey: local.apiKey,
          seed: SEED,
          budget,
          phases: ['stateless'],
          out: await mkdtemp(join(tmpdir(), 'fuzz-budget-')),
        })
        const { probes, stateless, shrinking, stateful, total } = run.report.requests
        expect(total).toBe(probes + stateless + shrinking + stateful)
        expect(total).toBeLessThanOrEqual(budget)
        expect(shrinking).toBe(run.findings.reduce((n, f) => n + f.shrinkingRequests, 0))
        // Found early; its shrinking goes on with what the looking left, and stops at the bound.
        expect(run.findings.map((f) => f.property)).toEqual(['no-5xx'])
        expect(shrinking).toBeGreaterThan(0)
        expect(total).toBe(budget)
      }
    } finally {
      await faults({ clear: true })
    }
  }, 120_000)

  // The most steps a shrunk finding may have: one request; a few commands; the sender's own
  // quote (fund it, quote, read before, sign, submit, poll, receipts, read after: one command).
  const FAULTS: [
    fault: string,
    phases: ('stateless' | 'stateful')[],
    properties: PropertyName[],
    maxSteps: number,
    /** What the finding's message must say, where the property has more than one side. */
    detail?: RegExp,
  ][] = [
    ['input.5xx-on-wrong-types', ['stateless'], ['no-5xx'], 1],
    ['input.accept-negative-amount', ['stateless'], ['invalid-input', 'no-5xx'], 1],
    ['limits.accept-11-ops', ['stateless'], ['limit-over', 'invalid-input'], 1],
    ['intents.accept-duplicate', ['stateful'], ['quote-consumed-once'], 6],
    ['webhooks.wrong-secret', ['stateful'], ['deposit-webhook'], 6],
    // The sender's funds move by one unit other than the quote's input: only the sender's side sees it.
    [
      'intents.refund-sponsor-one-unit',
      ['stateful'],
      ['settled-exactly'],
      16,
      /(balance |balanceOf\()\$\{fresh\.3\.address\}.* changed by .*, [+-]1 off/,
    ],
  ]
  test.each(FAULTS)(
    'with %s: a finding within the budget, whose scenario fails with the fault and passes without it',
    async (fault, phases, properties, maxSteps, detail) => {
      const out = await mkdtemp(join(tmpdir(), 'fuzz-fault-'))
      await faults({ clear: true, enable: [fault] })
      try {
        const run = await runFuzz({
          target: local.target,
          apiKey: local.apiKey,
          seed: SEED,
          budget: 2000,
          statefulRuns: 12,
          phases,
          maxFindings: 1,
          out,
        })
        expect(run.findings).toHaveLength(1)
        // Shrinking is counted, and within the budget with everything else.
        expect(run.report.requests.total).toBeLessThanOrEqual(2000)
        expect(run.report.requests.shrinking).toBe(run.report.findings[0]!.shrinkingRequests)
        const [finding] = run.findings
        expect(properties).toContain(finding!.property)
        if (detail) expect(finding!.message).toMatch(detail)
        // The scenario names its seed and property, and is a scenario of the packs' format.
        const text = await readFile(run.report.findings[0]!.file, 'utf8')
        expect(text).toContain(`# seed: ${SEED}`)
        expect(text).toContain(`# property: ${finding!.property}`)
        expect(parse(text).steps.length).toBeLessThanOrEqual(maxSteps)

        const withFault = await replay(out)
        expect(withFault.scenarios.map((s) => s.status)).toEqual(['failed'])
      } finally {
        await faults({ clear: true })
      }
      const without = await replay(out)
      expect(without.scenarios.map((s) => [s.id, s.status])).toEqual([
        [expect.stringMatching(/^fuzz\./), 'passed'],
      ])
    },
    90_000,
  )
})
