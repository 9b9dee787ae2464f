import { describe, expect, test } from 'vitest'
import { summarize } from '../../conformance/runner/runConformance'
import type { CheckResult, ScenarioResult } from '../../conformance/runner/types'

const check = (name: string, level: 'MUST' | 'SHOULD', status: 'passed' | 'failed'): CheckResult => ({
  id: `s/1/${name}`,
  scenarioId: 's',
  step: 1,
  name,
  spec: 'Errors',
  level,
  status,
})
const results: ScenarioResult[] = [
  {
    id: 's',
    title: 't',
    pack: 'p',
    file: 'f',
    spec: 'Errors',
    status: 'failed',
    checks: [check('a', 'MUST', 'passed'), check('b', 'SHOULD', 'failed')],
    durationMs: 0,
  },
]

describe('MUST and SHOULD', () => {
  test('a SHOULD failure does not fail certification; --strict counts it', () => {
    expect(summarize(results, [], 0)).toMatchObject({
      unexpected: 0,
      strict: false,
      levels: { must: { passed: 1, failed: 0 }, should: { passed: 0, failed: 1 } },
    })
    expect(summarize(results, [], 0, true).unexpected).toBe(1)
  })

  test('a MUST failure fails certification', () => {
    const must = [{ ...results[0]!, checks: [check('a', 'MUST', 'failed')] }]
    expect(summarize(must, [], 0).unexpected).toBe(1)
  })
})
