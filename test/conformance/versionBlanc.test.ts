import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { runConformance } from '../../conformance/runner/runConformance'
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
})
