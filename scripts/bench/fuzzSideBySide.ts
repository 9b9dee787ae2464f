/**
 * The fuzzer's stateless phase of this checkout beside another one's (a baseline: say a
 * `git archive main` copy with a `node_modules` link to this one's), in ONE process against ONE
 * in-process simulator (the baseline's), run alternately (which goes first alternates by seed),
 * so that the machine's minutes and processes weigh on both alike. Prints each run's rate
 * (requests per wall second, and per CPU second of the process) and the medians.
 *
 * Usage: npx tsx scripts/bench/fuzzSideBySide.ts --base DIR [--seeds 5] [--requests 3000]
 */
import { mkdtemp } from 'node:fs/promises'
import { loadavg, tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'

const args = process.argv.slice(2)
const option = (name: string) => {
  const index = args.indexOf(`--${name}`)
  return index >= 0 ? args[index + 1] : undefined
}
const base = option('base')
if (!base) {
  console.error('usage: npx tsx scripts/bench/fuzzSideBySide.ts --base DIR [--seeds 5] [--requests 3000]')
  process.exit(2)
}
const seeds = Number(option('seeds') ?? 5)
const requests = Number(option('requests') ?? 3000)
const roots = { base: resolve(base), branch: resolve(fileURLToPath(new URL('../..', import.meta.url))) }

type RunFuzz = typeof import('../../conformance/fuzz/runFuzz').runFuzz
const load = async (root: string) =>
  (await import(join(root, 'conformance/fuzz/runFuzz.ts'))) as { runFuzz: RunFuzz }
const fuzzers = { base: await load(roots.base), branch: await load(roots.branch) }
const { startLocalTarget } = (await import(
  join(roots.base, 'conformance/runner/startLocalTarget.ts')
)) as typeof import('../../conformance/runner/startLocalTarget')

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b)
  const mid = Math.floor(sorted.length / 2)
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2
}

const local = await startLocalTarget()
const rows: Record<'base' | 'branch', { wall: number; cpu: number }[]> = { base: [], branch: [] }
try {
  for (let seed = 1; seed <= seeds; seed++) {
    const order: ('base' | 'branch')[] = seed % 2 ? ['base', 'branch'] : ['branch', 'base']
    for (const which of order) {
      const started = process.cpuUsage()
      const run = await fuzzers[which].runFuzz({
        target: local.target,
        apiKey: local.apiKey,
        seed,
        budget: requests,
        phases: ['stateless'],
        out: await mkdtemp(join(tmpdir(), 'bench-fuzz-sbs-')),
      })
      const used = process.cpuUsage(started)
      const cpu = Math.round(run.report.requests.total / ((used.user + used.system) / 1e6))
      rows[which].push({ wall: run.report.requests.statelessPerSecond, cpu })
      console.log(
        `seed ${seed} ${which}: ${run.report.requests.statelessPerSecond}/s, ${cpu}/CPU-s, ${run.findings.length} findings; load ${loadavg()[0]!.toFixed(1)}`,
      )
    }
  }
} finally {
  await local.stop()
}
for (const which of ['base', 'branch'] as const)
  console.log(
    `${which} (${roots[which]}): median ${median(rows[which].map((r) => r.wall))}/s, ${median(rows[which].map((r) => r.cpu))}/CPU-s`,
  )
console.log(
  `branch / base: ${(median(rows.branch.map((r) => r.wall)) / median(rows.base.map((r) => r.wall))).toFixed(2)}x wall, ${(median(rows.branch.map((r) => r.cpu)) / median(rows.base.map((r) => r.cpu))).toFixed(2)}x CPU`,
)
