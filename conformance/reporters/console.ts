import type { CheckResult, RunResult, ScenarioResult } from '../runner/types'
import { show } from './escape'

const useColor = process.stdout.isTTY === true && process.env.NO_COLOR === undefined
const paint = (code: number) => (text: string) => (useColor ? `\u001b[${code}m${text}\u001b[0m` : text)
const green = paint(32)
const red = paint(31)
const yellow = paint(33)
const dim = paint(2)

/** One progress line for a finished scenario. */
export function formatProgress(result: ScenarioResult, done: number, total: number): string {
  const mark = result.status === 'passed' ? green('✓') : result.status === 'failed' ? red('✗') : yellow('-')
  const counter = dim(`[${String(done).padStart(String(total).length)}/${total}]`)
  const detail =
    result.status === 'not-applicable'
      ? yellow(`not applicable: ${result.reason}`)
      : dim(
          `${result.checks.length} checks, ${result.durationMs} ms${result.status === 'failed' && result.reason ? `; ${result.reason}` : ''}${result.stepsNotRun ? `; ${result.stepsNotRun}` : ''}`,
        )
  return `${counter} ${mark} ${result.pack}/${result.id} ${detail}`
}

function formatFailure(check: CheckResult): string[] {
  const lines = [
    `${red('✗')} ${check.id}${check.baseline === 'expected-failure' ? yellow(' (expected by the baseline)') : ''}`,
    `    spec:     ${check.spec} (${check.level ?? 'MUST'})`,
  ]
  if (check.message) lines.push(`    problem:  ${check.message}`)
  if (check.expected !== undefined) lines.push(`    expected: ${show(check.expected)}`)
  if (check.actual !== undefined) lines.push(`    actual:   ${show(check.actual).slice(0, 300)}`)
  if (check.exchange) {
    lines.push(dim(`    request:  ${check.exchange.request.method} ${check.exchange.request.url}`))
    // What the target said, for every failed status check: a vendor sees why without the JSON report.
    const response = check.exchange.response
    if (response && /^(should )?(status|any of)$/.test(check.name))
      lines.push(dim(`    response: ${response.status} ${trimmed(response.body)}`))
  }
  return lines
}

/** A response body on one line, cut to a few hundred characters. */
function trimmed(body: string): string {
  const line = body.replace(/\s+/g, ' ').trim()
  if (line === '') return '(empty body)'
  return line.length > 400 ? `${line.slice(0, 400)}… (${body.length} bytes)` : line
}

/**
 * A progress printer that prints each scenario's line in pack order, whatever order they finish
 * in: a line waits until every scenario before it has been printed.
 *
 * @example
 * const onScenario = inPackOrder((line) => console.log(line))
 * await runConformance({ …, onScenario })
 */
export function inPackOrder(
  print: (line: string) => void,
): (result: ScenarioResult, done: number, total: number, index: number) => void {
  const waiting = new Map<number, ScenarioResult>()
  let next = 0
  let printed = 0
  return (result, _done, total, index) => {
    waiting.set(index, result)
    for (let ready = waiting.get(next); ready; ready = waiting.get(next)) {
      waiting.delete(next++)
      print(formatProgress(ready, ++printed, total))
    }
  }
}

/**
 * The console report: failures with expected and actual, baseline entries that now pass,
 * then the summary.
 */
export function renderConsole(run: RunResult): string {
  const lines: string[] = []
  const failures = run.scenarios.flatMap((s) => s.checks.filter((c) => c.status === 'failed'))
  if (failures.length > 0) lines.push('', 'Failures:', ...failures.flatMap(formatFailure))
  if (run.staleBaseline.length > 0)
    lines.push(
      '',
      red('Baseline entries that now pass (remove them from the baseline):'),
      ...run.staleBaseline.map((e) => `  ${e}`),
    )
  const { scenarios, checks, unexpected, durationMs } = run.summary
  lines.push(
    '',
    ...(run.capabilities.learned?.hints ?? []).map((hint) => yellow(`Hint:      ${hint}`)),
    ...(run.metadata.mappings?.length ? [dim(`Mappings:  ${run.metadata.mappings.join('; ')}`)] : []),
    `Target:    ${run.target}${run.shard ? ` (shard ${run.shard.index}/${run.shard.total})` : ''}`,
    dim(
      `Run:       intent-devnet ${run.metadata.runnerVersion}, pack ${run.metadata.packDigest.slice(0, 19)}…, profile ${run.metadata.profile}, versions ${run.metadata.versions.join(', ') || 'none'}, ${run.metadata.date}`,
    ),
    `Scenarios: ${green(`${scenarios.passed} passed`)}, ${scenarios.failed ? red(`${scenarios.failed} failed`) : '0 failed'}, ${yellow(`${scenarios.notApplicable} not applicable`)} (${scenarios.total})`,
    `Checks:    ${checks.passed} passed, ${checks.failed} failed (${checks.expectedFailures} expected by the baseline), ${checks.total} total`,
    `Grades:    MUST ${run.summary.levels.must.passed} passed, ${run.summary.levels.must.failed} failed; SHOULD ${run.summary.levels.should.passed} passed, ${run.summary.levels.should.failed} failed${run.summary.strict ? ' (--strict: SHOULD failures count)' : ' (only MUST failures fail certification; --strict adds SHOULD)'}`,
    `Time:      ${(durationMs / 1000).toFixed(2)} s`,
    unexpected === 0 ? green('Result:    conformant') : red(`Result:    ${unexpected} unexpected result(s)`),
  )
  return lines.join('\n')
}
