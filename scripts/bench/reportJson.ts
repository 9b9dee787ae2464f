/**
 * Bench: the JSON reporter's part of the conformance run's tail (render report.json and write
 * it), the ways before and after t6tail alternated in one process over a real report.json
 * (`node bin/intent-devnet.js conformance --reporter json --out DIR` writes one):
 * - before: renderJson (`JSON.stringify(report, null, 2)`, as writeReports did), written by
 *   fs/promises writeFile (512 KiB a write call);
 * - once: renderJson, written by writeWhole (one write call: fs.writeFile);
 * - bytes: renderJsonBytes (stringifyReport.ts: each shared exchange serialized and encoded
 *   once, no 7 MB string), the same write;
 * - after: renderJsonBytes, written by writeReports' writeWhole (one write of the whole buffer).
 * Each file is new (as in a run). The texts must be equal, or it stops.
 *
 * A parsed report holds a copy of an exchange for each check; the runner holds one object per
 * HTTP step, shared by the step's checks. So the checks of a step whose exchanges are equal are
 * given one object again, as in the run, before anything is timed.
 *
 * `--cold N`: each way once in each of N fresh processes, alternated (a run renders the report
 * once per process: the code is cold, as there), the medians of those.
 *
 *   npx tsx scripts/bench/reportJson.ts --report DIR/report.json [--runs 15] [--cold 0]
 */
import { execFileSync } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { writeFile } from 'node:fs/promises'
import { loadavg, tmpdir } from 'node:os'
import { join } from 'node:path'
import { writeWhole } from '../../conformance/reporters'
import { renderJson, renderJsonBytes } from '../../conformance/reporters/json'
import type { RunResult } from '../../conformance/runner/types'

const argument = (name: string, fallback?: string) => {
  const index = process.argv.indexOf(`--${name}`)
  const value = index >= 0 ? process.argv[index + 1] : fallback
  if (value === undefined) throw new Error(`--${name} is required`)
  return value
}
const runs = Number(argument('runs', '15'))
const cold = Number(argument('cold', '0'))
const only = argument('way', '')
const report = JSON.parse(readFileSync(argument('report'), 'utf8'))
// report.json counts the funded accounts; a run holds them (renderJson counts them again).
report.capabilities.accounts = Array.from({ length: report.capabilities.accounts }, () => '0x00')
let checks = 0
const shared = new Map<string, unknown>()
for (const scenario of report.scenarios)
  for (const check of scenario.checks) {
    if (check.exchange === undefined) continue
    checks++
    const key = `${scenario.id}\0${check.step}\0${JSON.stringify(check.exchange)}`
    check.exchange = shared.get(key) ?? check.exchange
    shared.set(key, check.exchange)
  }
const run = report as RunResult

type Way = { render: () => string | Buffer; write: (path: string, data: string | Buffer) => Promise<void> }
const ways: Record<string, Way> = {
  before: { render: () => renderJson(run), write: writeFile },
  once: { render: () => renderJson(run), write: writeWhole },
  bytes: { render: () => renderJsonBytes(run), write: writeFile },
  after: { render: () => renderJsonBytes(run), write: writeWhole },
}
// Checked by the parent only: a fresh process (--way) renders once, cold.
const expected = only ? undefined : Buffer.from(ways.before!.render())
for (const [name, way] of only ? [] : Object.entries(ways))
  if (!expected!.equals(Buffer.from(way.render())))
    throw new Error(`${name} does not write what JSON.stringify writes`)
const dir = mkdtempSync(join(tmpdir(), 'report-json-bench-'))
const times = Object.fromEntries(
  Object.keys(ways).map((name) => [name, { render: [] as number[], total: [] as number[] }]),
)
const names = only ? [only] : Object.keys(ways)
if (cold > 0) {
  for (let round = 0; round < cold; round++)
    for (const index of names.keys()) {
      const name = names[(index + round) % names.length]!
      const args = [
        '--import',
        'tsx',
        process.argv[1]!,
        '--report',
        argument('report'),
        '--runs',
        '1',
        '--way',
        name,
      ]
      const line = execFileSync(process.execPath, args, { encoding: 'utf8' }).trim().split('\n').at(-1)!
      const [render, total] = JSON.parse(line) as [number, number]
      times[name]!.render.push(render)
      times[name]!.total.push(total)
    }
}
for (let round = 0; round < (cold > 0 ? 0 : runs); round++) {
  // Each way first as often as the others.
  const order = names.map((_, index) => names[(index + round) % names.length]!)
  for (const name of order) {
    const start = performance.now()
    const data = ways[name]!.render()
    const rendered = performance.now()
    await ways[name]!.write(join(dir, `${name}-${round}.json`), data)
    times[name]!.render.push(rendered - start)
    times[name]!.total.push(performance.now() - start)
  }
}
rmSync(dir, { recursive: true, force: true })
if (only) {
  console.log(JSON.stringify([times[only]!.render[0], times[only]!.total[0]]))
  process.exit(0)
}
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!
console.log(
  `report.json ${(expected!.length / 1e6).toFixed(2)} MB, ${checks} checks with an exchange, ${shared.size} exchange objects; ${cold > 0 ? `${cold} fresh processes` : `${runs} runs`} each, alternated; load ${loadavg()[0]!.toFixed(2)}`,
)
const base = times.before!
for (const name of names) {
  const { render, total } = times[name]!
  console.log(
    `${name.padEnd(6)} render ${median(render).toFixed(1)} ms (min ${Math.min(...render).toFixed(1)}, ${(median(render) / median(base.render)).toFixed(2)}x), render+write ${median(total).toFixed(1)} ms (min ${Math.min(...total).toFixed(1)}, ${(median(total) / median(base.total)).toFixed(2)}x)`,
  )
}
