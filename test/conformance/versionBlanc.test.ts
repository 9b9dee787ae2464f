import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { runConformance } from '../../conformance/runner/runConformance'
import { scenario } from '../../conformance/runner/testing/bareTarget'
import { loadScenarios } from '../../conformance/scenario/loadScenarios'
import { type FakeTarget, startFakeTarget } from './fakeTarget'

let fake: FakeTarget
beforeAll(async () => {
  fake = await startFakeTarget('404 {}')
})
afterAll(() => fake?.close())

describe('--version blanc', () => {
  test('runs blanc steps only: an alps step of a mixed scenario is not run and reported so', async () => {
    const scenarios = await loadScenarios({ packs: ['versioning'] })
    const run = await runConformance({
      target: fake.url,
      apiKey: 'k',
      version: 'blanc',
      scenarios: scenarios.filter((s) => s.id === 'versioning.known-versions'),
    })
    const result = run.scenarios[0]!
    expect(result.stepsNotRun).toBe('step 1 not run: alps, and the run is --version blanc')
    expect(new Set(result.checks.map((c) => c.step))).not.toContain(1)
    expect(run.metadata.versions).toEqual(['blanc'])
  })

  test('a step that names what only an alps step captures is not run either, nor what it captures in turn', async () => {
    const mixed = scenario(`
id: steps.mixed
title: an alps capture used later
spec: test
steps:
  - http: { method: POST, path: /intents/route, version: alps, body: {} }
    capture: { quoted: /intentOp }
  - patch: { value: '\${quoted}', set: { /nonce: '1' } }
    captureAs: patched
  - http: { method: POST, path: /intent-operations, body: { intentOp: '\${patched}' } }
    expect: { status: 404 }
  - http: { method: GET, path: /health }
    expect: { status: 404 }
`)
    const run = await runConformance({ target: fake.url, apiKey: 'k', version: 'blanc', scenarios: [mixed] })
    const result = run.scenarios[0]!
    expect(result.stepsNotRun).toBe(
      'step 1 not run: alps, and the run is --version blanc; steps 2, 3 neither: they need what those capture',
    )
    // Step 4 runs (its own checks judge the target's 404 {}); nothing stops on a missing variable.
    expect(new Set(result.checks.map((c) => c.step))).toEqual(new Set([4]))
    expect(JSON.stringify(result.checks)).not.toMatch(/Unknown variable/)
  })
})
