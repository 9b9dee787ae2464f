import { afterAll, describe, expect, test } from 'vitest'
import { formatProgress } from '../../conformance/reporters'
import { runConformance } from '../../conformance/runner/runConformance'
import type { RunResult } from '../../conformance/runner/types'
import { loadScenarios } from '../../conformance/scenario/loadScenarios'
import { type FakeBehaviour, type FakeTarget, startFakeTarget } from './fakeTarget'

const started: FakeTarget[] = []
const scenarios = await loadScenarios({})
afterAll(() => Promise.all(started.map((t) => t.close())))

/** The checks that passed, by id and name, so a check that passes on nonsense names itself. */
function passingChecks(run: RunResult): string[] {
  return run.scenarios.flatMap((s) =>
    s.checks.filter((c) => c.status === 'passed').map((c) => `${c.id} (${c.name})`),
  )
}

describe('nonsense targets fail every scenario', () => {
  test.each<FakeBehaviour>(['200 {}', '404 {}', '500', 'echo'])(
    'a target that answers %s: 0 scenarios pass, at least 98 percent of the applicable checks fail, nothing after a failed step',
    async (behaviour) => {
      const fake = await startFakeTarget(behaviour)
      started.push(fake)
      const run = await runConformance({
        scenarios,
        target: fake.url,
        apiKey: 'fake-key',
        timeoutSeconds: 10,
        maxWaitSeconds: 0,
      })
      const passing = passingChecks(run)
      expect(run.scenarios.filter((s) => s.status === 'passed').map((s) => s.id)).toEqual([])
      expect(run.summary.checks.total).toBeGreaterThan(0)
      expect(run.summary.checks.passed / run.summary.checks.total, passing.join('\n')).toBeLessThanOrEqual(
        0.02,
      )
      for (const scenario of run.scenarios.filter((s) => s.status === 'failed')) {
        // A failed step stops its scenario: its later steps are not run and add no failures.
        const failedSteps = new Set(scenario.checks.filter((c) => c.status === 'failed').map((c) => c.step))
        const firstFailed = Math.min(...failedSteps)
        const stepCount = scenarios.find((s) => s.id === scenario.id)!.steps.length
        const stepsAfter = scenario.checks.filter((c) => c.step > firstFailed && c.step <= stepCount)
        expect(stepsAfter, scenario.id).toEqual([])
        if (scenario.reason) expect(scenario.reason).toMatch(/^stopped after step \d+; \d+ steps? not run$/)
        expect(formatProgress(scenario, 1, 1)).toContain(
          scenario.reason ?? `${scenario.checks.length} checks`,
        )
      }
    },
    120_000,
  )
})
