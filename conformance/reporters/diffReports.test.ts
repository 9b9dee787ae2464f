import { describe, expect, test } from 'vitest'
import type { ScenarioResult } from '../runner/types'
import { diffReports, formatDiff } from './diffReports'

const metadata = {
  runnerVersion: '0.1.0',
  packDigest: 'sha256:aa',
  target: 'http://a',
  profile: 'spec',
  versions: ['blanc' as const],
  date: 'd',
}
const scenario = (status: 'passed' | 'failed', level: 'MUST' | 'SHOULD' = 'MUST'): ScenarioResult => ({
  id: 's',
  title: 't',
  pack: 'p',
  file: 'f',
  spec: 'x',
  status,
  checks: [{ id: 's/1/status', scenarioId: 's', step: 1, name: 'status', spec: 'x', level, status }],
  durationMs: 0,
})

describe('diffReports', () => {
  test('names every check whose outcome moved, and the metadata that differs', () => {
    const diff = diffReports(
      { metadata, scenarios: [scenario('passed')] },
      { metadata: { ...metadata, target: 'http://b' }, scenarios: [scenario('failed', 'SHOULD')] },
    )
    expect(formatDiff(diff)).toMatchInlineSnapshot(`
      "target: "http://a" → "http://b"
      s/1/status: passed → failed (SHOULD)"
    `)
    expect(formatDiff(diffReports({ metadata, scenarios: [] }, { metadata, scenarios: [] }))).toBe(
      'no differences',
    )
  })
})
