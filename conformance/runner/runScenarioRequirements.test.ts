import { describe, expect, test } from 'vitest'
import { loadScenarios } from '../scenario/loadScenarios'
import { runConformance } from './runConformance'
import { scenario, startBareTarget, useBareTargetWithChain } from './testing/bareTarget'

const fx = useBareTargetWithChain()

describe('runScenario', () => {
  test('a scenario whose requirements the target lacks is not applicable, never passed', async () => {
    const needs = (capabilities: string) =>
      scenario(
        `id: needs.${capabilities}\ntitle: t\nspec: s\nrequires: { capabilities: [${capabilities}] }\nsteps:\n  - wait: 1\n`,
      )
    const run = await runConformance({
      target: fx.local.target,
      apiKey: fx.local.apiKey,
      scenarios: [needs('chains'), needs('control-api'), needs('quotes'), needs('devnet')],
    })
    expect(run.scenarios.map((s) => [s.id, s.status, s.reason])).toEqual([
      ['needs.chains', 'not-applicable', 'no chain RPC URLs (no manifest and no --chains file)'],
      ['needs.control-api', 'not-applicable', 'the target has no devnet control API (GET /_devnet/manifest)'],
      // A missing endpoint fails the scenario's checks; it never makes the scenario not applicable.
      ['needs.quotes', 'passed', undefined],
      ['needs.devnet', 'passed', undefined],
    ])
  })

  test('a scenario naming a funded account the run does not have is not applicable; with it, it runs', async () => {
    const quote = scenario(`
id: needs.account
title: t
spec: s
steps:
  - http: { method: GET, path: "/health?for=\${accounts.0.address}" }
    expect: { status: 200 }
`)
    const without = await runConformance({
      target: fx.local.target,
      apiKey: fx.local.apiKey,
      scenarios: [quote],
    })
    expect(without.scenarios.map((s) => [s.status, s.reason])).toEqual([
      [
        'not-applicable',
        'it uses funded account 0 and the run has none (no manifest, and no accounts in a --chains file): add funded private keys under accounts in --chains',
      ],
    ])
    const withAccounts = await runConformance({
      target: fx.local.target,
      apiKey: fx.local.apiKey,
      chainsFile: fx.chainsFile,
      scenarios: [quote],
    })
    expect(withAccounts.scenarios[0]!.status).toBe('passed')
  })

  test('a clock step without the control API waits a short time out, and is not applicable past its limit', async () => {
    const clock = (advance: number) =>
      scenario(
        `id: clock.s${advance}\ntitle: t\nspec: s\nsteps:\n  - clock: { advance: ${advance}, fallback: wait, maxWaitSeconds: 1 }\n  - http: { method: GET, path: /health }\n    expect: { status: 200 }\n`,
      )
    const started = Date.now()
    const run = await runConformance({
      target: fx.local.target,
      apiKey: fx.local.apiKey,
      scenarios: [clock(1), clock(3600)],
    })
    expect(Date.now() - started).toBeGreaterThanOrEqual(1000)
    expect(run.scenarios.map((s) => s.status)).toEqual(['passed', 'not-applicable'])
    expect(run.scenarios[1]!.reason).toContain('3600s is longer than the 1s the run may wait (--max-wait)')
  })

  test('captures feed later steps, and a failed step stops the scenario', async () => {
    const run = await runConformance({
      target: fx.local.target,
      apiKey: fx.local.apiKey,
      scenarios: [
        scenario(`
id: capture
title: t
spec: s
steps:
  - http: { method: POST, path: /withdrawals, body: {} }
    capture: { trace: 'header:x-trace-id', code: /code }
  - http: { method: POST, path: /withdrawals, body: {} }
    expect: { body: { /code: { equals: '\${code}' }, /traceId: { matches: '^(?!\${trace}$)' } } }
  - http: { method: GET, path: /health }
    expect: { status: 500 }
  - http: { method: GET, path: /health }
`),
      ],
    })
    const result = run.scenarios[0]!
    // Every answer the step accepted also gets the route table's checks (the 5xx rule, the envelope).
    expect(result.checks.map((c) => `${c.id} ${c.status}`)).toEqual([
      'capture/1/every answer: not a 5xx passed',
      'capture/1/should every answer: the error envelope passed',
      'capture/2/body /code passed',
      'capture/2/body /traceId passed',
      'capture/2/every answer: not a 5xx passed',
      'capture/2/should every answer: the error envelope passed',
      'capture/3/status failed',
    ])
    expect(result.reason).toBe('stopped after step 3; 1 step not run')
  })

  test('the versioning and errors packs pass against a simulator with strict versioning too', async () => {
    const strict = await startBareTarget({ strictVersion: true })
    try {
      const scenarios = await loadScenarios({ packs: ['versioning', 'errors'] })
      const run = await runConformance({ target: strict.target, apiKey: strict.apiKey, scenarios })
      const failed = run.scenarios.flatMap((s) => s.checks.filter((c) => c.status === 'failed'))
      expect(failed.map((c) => `${c.id}: ${c.message}`)).toEqual([])
      expect(run.summary.checks.total).toBeGreaterThan(20)
    } finally {
      await strict.stop()
    }
  })
})
