import { describe, expect, test } from 'vitest'
import { applyBaseline } from './baseline'
import { summarize } from './runConformance'
import type { CheckResult, ScenarioResult } from './types'

const check = (scenarioId: string, step: number, name: string, status: 'passed' | 'failed'): CheckResult => ({
  id: `${scenarioId}/${step}/${name}`,
  scenarioId,
  step,
  name,
  spec: 's',
  status,
})
const scenario = (id: string, checks: CheckResult[], status?: ScenarioResult['status']): ScenarioResult => ({
  id,
  title: id,
  pack: 'p',
  file: `${id}.yaml`,
  spec: 's',
  status: status ?? (checks.some((c) => c.status === 'failed') ? 'failed' : 'passed'),
  checks,
  durationMs: 1,
})

describe('applyBaseline', () => {
  test('an expected failure does not count; an unexpected one does', () => {
    const results = [scenario('a', [check('a', 1, 'status', 'failed'), check('a', 2, 'status', 'failed')])]
    const stale = applyBaseline(results, { expectedFailures: ['a/1/status'] })
    expect(stale).toEqual([])
    expect(results[0]!.checks.map((c) => c.baseline)).toEqual(['expected-failure', undefined])
    expect(summarize(results, stale, 0).unexpected).toBe(1)
  })

  test('a scenario id covers all its failures', () => {
    const results = [
      scenario('a', [check('a', 1, 'status', 'failed'), check('a', 1, 'envelope blanc', 'failed')]),
    ]
    const stale = applyBaseline(results, { expectedFailures: [{ id: 'a', reason: 'known' }] })
    expect(summarize(results, stale, 0).unexpected).toBe(0)
  })

  test('a baseline entry that now passes is reported and fails the run', () => {
    const results = [
      scenario('a', [check('a', 1, 'status', 'passed')]),
      scenario('b', [check('b', 1, 'status', 'passed')]),
    ]
    const stale = applyBaseline(results, { expectedFailures: ['a/1/status', 'b'] })
    expect(stale).toEqual(['a/1/status', 'b'])
    expect(results[0]!.checks[0]!.baseline).toBe('now-passes')
    expect(summarize(results, stale, 0)).toMatchObject({ unexpected: 2, checks: { nowPassing: 2 } })
  })

  test('entries of scenarios not run, not applicable, or checks not reached are left alone', () => {
    const results = [scenario('na', [], 'not-applicable'), scenario('c', [check('c', 1, 'status', 'failed')])]
    const stale = applyBaseline(results, {
      expectedFailures: ['other-shard/1/status', 'na/1/status', 'c/1/status', 'c/2/status'],
    })
    expect(stale).toEqual([])
    expect(summarize(results, stale, 0).unexpected).toBe(0)
  })
})
