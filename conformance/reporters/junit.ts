import type { RunResult } from '../runner/types'
import { show, escapeXml as x } from './escape'

/**
 * JUnit XML: one test suite per pack, one test case per check (class name = scenario id), a
 * not-applicable scenario as one skipped case with its reason. Failures the baseline expects are
 * reported as skipped, so CI stays green on them; a baseline entry that now passes is a failure.
 */
export function renderJunit(run: RunResult): string {
  const packs = [...new Set(run.scenarios.map((s) => s.pack))]
  const m = run.metadata
  // What makes two reports comparable (runner, pack digest, target, profile, versions, date).
  const properties = [
    '    <properties>',
    ...Object.entries({
      runnerVersion: m.runnerVersion,
      packDigest: m.packDigest,
      target: m.target,
      profile: m.profile,
      versions: m.versions.join(','),
      date: m.date,
    }).map(([name, value]) => `      <property name="${name}" value="${x(value)}"/>`),
    '    </properties>',
  ].join('\n')
  const suites = packs.map((pack) => {
    const cases: string[] = []
    let failures = 0
    let skipped = 0
    let time = 0
    for (const scenario of run.scenarios.filter((s) => s.pack === pack)) {
      time += scenario.durationMs
      if (scenario.status === 'not-applicable') {
        skipped++
        cases.push(
          `    <testcase classname="${x(scenario.id)}" name="${x(scenario.title)}" time="0"><skipped message="${x(`not applicable: ${scenario.reason ?? ''}`)}"/></testcase>`,
        )
        continue
      }
      for (const check of scenario.checks) {
        const name = x(`step ${check.step}: ${check.name} [${check.spec}]`)
        const open = `    <testcase classname="${x(scenario.id)}" name="${name}" time="0"`
        if (check.status === 'passed' && check.baseline !== 'now-passes') {
          cases.push(`${open}/>`)
        } else if (check.baseline === 'expected-failure') {
          skipped++
          cases.push(
            `${open}><skipped message="${x(`expected by the baseline: ${check.message ?? ''}`)}"/></testcase>`,
          )
        } else {
          failures++
          const message =
            check.baseline === 'now-passes'
              ? 'passes, but the baseline expects it to fail: remove the entry'
              : (check.message ?? 'failed')
          const body = [
            `spec: ${check.spec}`,
            `expected: ${show(check.expected)}`,
            `actual: ${show(check.actual)}`,
            check.exchange ? `request: ${check.exchange.request.method} ${check.exchange.request.url}` : '',
          ].join('\n')
          cases.push(
            `${open}><failure message="${x(message)}" type="${x(check.name)}">${x(body)}</failure></testcase>`,
          )
        }
      }
    }
    return [
      `  <testsuite name="${x(pack)}" tests="${cases.length}" failures="${failures}" errors="0" skipped="${skipped}" time="${(time / 1000).toFixed(3)}">`,
      properties,
      ...cases,
      '  </testsuite>',
    ].join('\n')
  })
  const s = run.summary
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites name="${x(`conformance ${run.target}`)}" tests="${s.checks.total}" failures="${s.unexpected}" time="${(s.durationMs / 1000).toFixed(3)}">`,
    ...suites,
    '</testsuites>',
    '',
  ].join('\n')
}
