import { mkdtemp } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { runFuzz } from '../../conformance/fuzz/runFuzz'

const out = await mkdtemp(join(tmpdir(), 'fuzz-dep-'))
const t = Date.now()
const run = await runFuzz({
  seed: Number(process.argv[2] ?? 1),
  budget: 1500,
  phases: ['stateful'],
  statefulRuns: Number(process.argv[3] ?? 4),
  out,
  onSequence: (i, c) => console.log('seq', i, c),
})
console.log(JSON.stringify(run.report.requests), run.report.statefulSequences, run.report.statefulLeftOut)
console.log(run.findings.map((f) => `${f.key}: ${f.message}`))
console.log(
  JSON.stringify(Object.fromEntries(Object.entries(run.report.coverage).map(([k, v]) => [k, v.properties]))),
)
console.log(Date.now() - t, 'ms', out)
