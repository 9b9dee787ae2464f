/**
 * Benchmark of the start of `intent-devnet conformance` (all packs, no --target), side by side:
 * in each tree given, alternately, the CLI runs as a user runs it, and its report.json says when
 * runConformance started (`startedAt`) and its `timing` (target ready, capabilities known, first
 * and last scenario); with the moment the command was spawned, each is read from the command:
 *
 * - `pre`: the command to runConformance (the bin, the bundle's load, the packs' CLI);
 * - `ready`: to the simulator's ready line (its child started by the bin);
 * - `ready->first`: from there to the first scenario (capabilities, the webhook receiver);
 * - `first`, `exit`: to the first scenario, to the command's exit.
 *
 * Medians of the runs per tree (and of the differences per run, not of the medians). Every run
 * must stay conformant with the same count of checks: printed beside.
 *
 *   npx tsx scripts/bench/conformanceStart.ts [--runs 8] TREE [TREE…]
 */
import { spawn } from 'node:child_process'
import { mkdtemp, readFile, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'

const args = process.argv.slice(2)
const runsAt = args.indexOf('--runs')
const runs = runsAt >= 0 ? Number(args.splice(runsAt, 2)[1]) : 8
const trees = args.map((tree) => resolve(tree))
if (trees.length === 0 || !Number.isSafeInteger(runs) || runs < 1) {
  console.error('usage: npx tsx scripts/bench/conformanceStart.ts [--runs 8] TREE [TREE…]')
  process.exit(2)
}

type Run = { pre: number; ready: number; readyToFirst: number; first: number; exit: number; verdict: string }

/** One run of all packs in `tree`, its marks from the command's spawn. */
async function once(tree: string): Promise<Run> {
  const out = await mkdtemp(join(tmpdir(), 'bench-conformance-start-'))
  const spawned = Date.now()
  const code = await new Promise<number | null>((done) =>
    spawn(process.execPath, ['bin/intent-devnet.js', 'conformance', '--reporter', 'json', '--out', out], {
      cwd: tree,
      stdio: 'ignore',
    }).on('exit', done),
  )
  const exit = Date.now() - spawned
  const report = JSON.parse(await readFile(join(out, 'report.json'), 'utf8'))
  await rm(out, { recursive: true, force: true })
  const pre = Date.parse(report.startedAt) - spawned
  const { targetReadyMs, firstScenarioMs } = report.timing
  const { scenarios, checks } = report.summary
  return {
    pre,
    ready: pre + targetReadyMs,
    readyToFirst: firstScenarioMs - targetReadyMs,
    first: pre + firstScenarioMs,
    exit,
    verdict: `exit ${code}, ${scenarios.passed}/${scenarios.total} scenarios, ${checks.total} checks`,
  }
}

const results = new Map<string, Run[]>(trees.map((tree) => [tree, []]))
for (let i = 0; i < runs; i++)
  for (const tree of trees) {
    const run = await once(tree)
    results.get(tree)!.push(run)
    console.log(`${tree}: ${JSON.stringify(run)}`)
  }

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!
for (const [tree, done] of results) {
  const of = (key: Exclude<keyof Run, 'verdict'>) => `${key} ${median(done.map((run) => run[key]))}`
  const verdicts = [...new Set(done.map((run) => run.verdict))].join('; ')
  console.log(
    `${tree} (median of ${done.length}, ms from the command): ${['pre', 'ready', 'readyToFirst', 'first', 'exit'].map((key) => of(key as Exclude<keyof Run, 'verdict'>)).join(', ')} | ${verdicts}`,
  )
}
