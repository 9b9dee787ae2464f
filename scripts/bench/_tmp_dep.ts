import { mkdtemp } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { runFuzz } from '../../conformance/fuzz/runFuzz'
import { startLocalTarget } from '../../conformance/runner/startLocalTarget'
const local = await startLocalTarget()
await fetch(new URL('/_devnet/faults', local.target), { method: 'POST', headers: { 'x-api-key': local.apiKey, 'content-type': 'application/json' }, body: JSON.stringify({ clear: true, enable: [process.argv[2]] }) })
const out = await mkdtemp(join(tmpdir(), 'fuzz-dep-'))
const t = Date.now()
const run = await runFuzz({ target: local.target, apiKey: local.apiKey, seed: 20261126, budget: 2000, phases: ['stateful'], statefulRuns: Number(process.argv[3] ?? 12), maxFindings: 1, out, onSequence: (i, c) => console.log('seq', i, c) })
console.log(JSON.stringify(run.report.requests), run.report.statefulSequences, run.report.statefulLeftOut)
console.log(run.findings.map((f) => `${f.key}: ${f.message}`))
console.log(JSON.stringify(Object.fromEntries(Object.entries(run.report.coverage).map(([k, v]) => [k, v.properties]))))
console.log(Date.now() - t, 'ms', out)
await local.stop()
export {}
