import type { CheckResult, RunResult } from '../runner/types'

/** A check whose outcome differs between two reports, or that only one of them has. */
export type CheckChange = { id: string; before: string; after: string }

/** What changed from report A to report B: their metadata, and every check whose outcome moved. */
export type ReportDiff = {
  metadata: { field: string; before: unknown; after: unknown }[]
  changes: CheckChange[]
}

type Report = Pick<RunResult, 'metadata' | 'scenarios'>

/** The outcome of a check as a report shows it: passed, failed, or failed (SHOULD). */
const outcome = (check: CheckResult) =>
  check.status === 'failed' && check.level === 'SHOULD' ? 'failed (SHOULD)' : check.status

/**
 * Compares two JSON reports check by check (`intent-devnet conformance diff A.json B.json`).
 *
 * @example
 * const diff = diffReports(JSON.parse(a), JSON.parse(b))
 * diff.changes // [{ id: 'errors.trace-ids/1/header x-trace-id', before: 'passed', after: 'failed' }]
 */
export function diffReports(a: Report, b: Report): ReportDiff {
  const metadata = (['runnerVersion', 'packDigest', 'target', 'profile', 'versions'] as const).flatMap(
    (field) => {
      const before = a.metadata?.[field]
      const after = b.metadata?.[field]
      return JSON.stringify(before) === JSON.stringify(after) ? [] : [{ field, before, after }]
    },
  )
  const index = (report: Report) => {
    const map = new Map<string, string>()
    for (const scenario of report.scenarios) {
      if (scenario.status === 'not-applicable') map.set(scenario.id, `not applicable: ${scenario.reason}`)
      for (const check of scenario.checks) map.set(check.id, outcome(check))
    }
    return map
  }
  const before = index(a)
  const after = index(b)
  const ids = [...new Set([...before.keys(), ...after.keys()])].sort()
  const changes = ids.flatMap((id) => {
    const was = before.get(id) ?? 'not run'
    const is = after.get(id) ?? 'not run'
    return was === is ? [] : [{ id, before: was, after: is }]
  })
  return { metadata, changes }
}

/** The diff as lines for the console. */
export function formatDiff(diff: ReportDiff): string {
  const lines = diff.metadata.map(
    (m) => `${m.field}: ${JSON.stringify(m.before)} → ${JSON.stringify(m.after)}`,
  )
  for (const change of diff.changes) lines.push(`${change.id}: ${change.before} → ${change.after}`)
  if (lines.length === 0) lines.push('no differences')
  return lines.join('\n')
}
