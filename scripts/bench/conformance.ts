/**
 * Benchmark of the conformance runner: wall time of all packs against the local simulator and
 * checks per second, then the same packs split with `--shard 1/2` and `2/2` run side by side.
 *
 *   npx tsx scripts/bench/conformance.ts [--runs 3]
 */
import { runConformance } from '../../conformance/runner/runConformance'
import { startLocalTarget } from '../../conformance/runner/startLocalTarget'
import { loadScenarios } from '../../conformance/scenario/loadScenarios'

const runsArg = process.argv.indexOf('--runs')
const runs = runsArg > 0 ? Number(process.argv[runsArg + 1]) : 3
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!

// One simulator for the whole runs, and one per shard (as separate CI machines would have:
// two shards on one target would share one API key's deposit-processor configuration).
const [local, ...shardTargets] = await Promise.all([
  startLocalTarget(),
  startLocalTarget(),
  startLocalTarget(),
])
const scenarios = await loadScenarios()
const base = { target: local!.target, apiKey: local!.apiKey, scenarios }
try {
  await runConformance(base) // warm-up
  const whole: { ms: number; checks: number }[] = []
  const sharded: { ms: number; checks: number[] }[] = []
  for (let i = 0; i < runs; i++) {
    let started = performance.now()
    const all = await runConformance(base)
    whole.push({ ms: performance.now() - started, checks: all.summary.checks.total })
    if (all.summary.unexpected > 0) throw new Error('the packs do not pass against the simulator')
    started = performance.now()
    const halves = await Promise.all(
      [1, 2].map((index) =>
        runConformance({
          ...base,
          target: shardTargets[index - 1]!.target,
          apiKey: shardTargets[index - 1]!.apiKey,
          shard: { index, total: 2 },
        }),
      ),
    )
    sharded.push({ ms: performance.now() - started, checks: halves.map((h) => h.summary.checks.total) })
  }
  const wholeMs = median(whole.map((r) => r.ms))
  const shardMs = median(sharded.map((r) => r.ms))
  const checks = whole[0]!.checks
  console.log(`scenarios: ${scenarios.length}, checks per run: ${checks} (runs: ${runs}, medians)`)
  console.log(
    `all packs, one process:        ${(wholeMs / 1000).toFixed(2)} s, ${(checks / (wholeMs / 1000)).toFixed(0)} checks/s`,
  )
  console.log(
    `--shard 1/2 + 2/2 side by side: ${(shardMs / 1000).toFixed(2)} s (checks ${sharded[0]!.checks.join(' + ')}), ${(checks / (shardMs / 1000)).toFixed(0)} checks/s, ${(wholeMs / shardMs).toFixed(2)}x`,
  )
} finally {
  await Promise.all([local, ...shardTargets].map((t) => t!.stop()))
}
