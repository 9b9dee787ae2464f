import { readFileSync } from 'node:fs'
import { loadScenarios } from '../conformance/scenario/loadScenarios'
import { estimatedCost } from '../conformance/runner/schedule'
const all = await loadScenarios()
const byId = new Map(all.map((s) => [s.id, s]))
const agg: Record<string, number[]> = {}
const rows: [string, number, number][] = []
for (const f of process.argv.slice(2)) {
  const r = JSON.parse(readFileSync(f, 'utf8'))
  for (const s of r.scenarios) {
    const sc = byId.get(s.id)!
    const steps = [...sc.steps, ...sc.cleanup]
    steps.forEach((st: any, i: number) => {
      const k = 'http' in st ? (st.poll ? 'poll' : 'http') : Object.keys(st).find((k) => ['chain','clock','fault','wait','webhook','sign','signIntentOp','patch'].includes(k))!
      ;(agg[k] ??= []).push(s.stepsMs?.[i] ?? 0)
    })
    rows.push([s.id, s.durationMs, estimatedCost(sc)])
  }
}
for (const [k, v] of Object.entries(agg)) console.log(k.padEnd(14), v.length, Math.round(v.reduce((a, b) => a + b, 0) / v.length))
rows.sort((a, b) => b[1] - a[1])
for (const r of rows.slice(0, 25)) console.log(r[0].padEnd(48), r[1], r[2])
