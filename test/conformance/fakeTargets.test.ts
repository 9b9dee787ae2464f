import { mkdtemp, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { formatProgress } from '../../conformance/reporters'
import { runConformance } from '../../conformance/runner/runConformance'
import { type LocalTarget, startLocalTarget } from '../../conformance/runner/startLocalTarget'
import type { RunResult } from '../../conformance/runner/types'
import { loadScenarios } from '../../conformance/scenario/loadScenarios'
import { chainsFileOf } from './chainsFileOf'
import { type FakeBehaviour, type FakeTarget, startFakeTarget } from './fakeTarget'

const started: FakeTarget[] = []
const scenarios = await loadScenarios({})
/** Real chains (a simulator's Anvils) for the runs with --chains: the runner's setup then succeeds. */
let chains: LocalTarget
let chainsFile: string
beforeAll(async () => {
  chains = await startLocalTarget()
  const file = (await chainsFileOf(chains.target, chains.apiKey)) as Record<string, unknown>
  chainsFile = join(await mkdtemp(join(tmpdir(), 'fake-chains-')), 'chains.json')
  // RPC URLs and keys only, as a vendor writes it: tokens and Permit2 come from the defaults.
  await writeFile(chainsFile, JSON.stringify({ chains: file.chains, accounts: file.accounts }))
}, 120_000)
afterAll(async () => {
  await Promise.all(started.map((t) => t.close()))
  await chains?.stop()
})

/** The checks that passed, by id and name, so a check that passes on nonsense names itself. */
function passingChecks(run: RunResult): string[] {
  return run.scenarios.flatMap((s) =>
    s.checks.filter((c) => c.status === 'passed').map((c) => `${c.id} (${c.name})`),
  )
}

const BEHAVIOURS: FakeBehaviour[] = ['200 {}', '404 {}', '500', 'echo', 'blanc 404']

describe('nonsense targets fail every scenario', () => {
  test.each(
    BEHAVIOURS.flatMap((behaviour) => [
      [behaviour, 'plain'],
      [behaviour, 'with --chains'],
    ]),
  )(
    'a target that answers %s (%s): 0 scenarios pass, at least 98 percent of its checks fail, nothing after a failed step',
    async (behaviour, how) => {
      const fake = await startFakeTarget(behaviour as FakeBehaviour)
      started.push(fake)
      const run = await runConformance({
        scenarios,
        target: fake.url,
        apiKey: 'fake-key',
        // A nonsense target never sends the webhooks the deposit and webhook scenarios wait for,
        // so each waits out its whole budget, one after another (they set state of the one
        // API key). 3 s is ample for the steps that pass against local Anvils.
        timeoutSeconds: 3,
        maxWaitSeconds: 0,
        chainsFile: how === 'plain' ? undefined : chainsFile,
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
      // The runner's own setup is never a check the target passed.
      for (const check of run.scenarios.flatMap((s) => s.checks))
        expect(check.name, check.id).not.toMatch(/^(transfer|approve|depositCompact|sendTransaction) on /)
    },
    120_000,
  )
})
