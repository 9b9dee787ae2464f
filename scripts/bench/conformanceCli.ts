/**
 * Benchmark of the conformance CLI as a user runs it: wall time of
 * `intent-devnet conformance` (all packs, no --target: it starts its own simulator) from the
 * command to its exit, beside `npm start -- --port 0` (its default four chains) from the command
 * to the line saying it is up, and the bin's `intent-devnet up --port 0` the same way (the start
 * without npm's own ~0.3 s), alternating in the same run. Goal (issue 15): all packs in less than
 * 3x `npm start`.
 *
 * `--compare DIR`: also times the packs of another scenario folder (e.g. main's, from
 * `git archive main scenarios`) in the same loop, so a change to the packs is measured side by side.
 * `--against ROOT`: also times the packs through another checkout's CLI (e.g. a worktree of main
 * after `npm ci`) in the same loop, so a change to the runner or the simulator is measured side
 * by side. The two trees take turns at going first, and each packs run starts 0.5 s after the
 * previous command ended (a run right after a stopped `up` measured ~0.3 s slower under load).
 *
 * Each packs run also reports its CPU time: user + sys of the whole process tree (the CLI, its
 * simulator child and the Anvils, each reaped by its parent), read by the shell's `times`: far
 * less noisy than wall time on a loaded machine.
 *
 *   npx tsx scripts/bench/conformanceCli.ts [--runs 3] [--compare DIR] [--against ROOT]
 */
import { spawn } from 'node:child_process'
import { mkdtemp } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

const root = join(import.meta.dirname, '../..')
const runsArg = process.argv.indexOf('--runs')
const runs = runsArg > 0 ? Number(process.argv[runsArg + 1]) : 3
const compareArg = process.argv.indexOf('--compare')
const compare = compareArg > 0 ? process.argv[compareArg + 1] : undefined
const againstArg = process.argv.indexOf('--against')
const against = againstArg > 0 ? process.argv[againstArg + 1] : undefined
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!

/** The lines the shell's `times` prints (its own user and sys, then its children's), after the command. */
const TIMES = /^(\d+)m([\d.]+)s (\d+)m([\d.]+)s$/gm

/**
 * Milliseconds from spawning the CLI with `args` to its exit (or to `readyLine`, then it is
 * stopped); `cpuMs`, for a command that exits on its own, the CPU time of its process tree.
 */
function time(
  args: string[],
  readyLine?: RegExp,
  command: [string, ...string[]] = [process.execPath, 'bin/intent-devnet.js'],
  cwd = root,
): Promise<{ ms: number; code: number | null; out: string; cpuMs?: number | undefined }> {
  return new Promise((resolve) => {
    const started = performance.now()
    // Its own process group, so that npm's child goes with it. Without a ready line, through a
    // shell whose `times` says the CPU of the whole tree once the command exits.
    const [file, ...rest] = readyLine
      ? [...command, ...args]
      : ['sh', '-c', '"$@"; code=$?; times >&2; exit $code', 'sh', ...command, ...args]
    const child = spawn(file!, rest, { cwd, detached: true })
    let out = ''
    let ready = 0
    const onData = (data: Buffer) => {
      out += data
      if (readyLine && !ready && readyLine.test(out)) {
        ready = performance.now() - started
        process.kill(-child.pid!, 'SIGINT')
      }
    }
    child.stdout.on('data', onData)
    child.stderr.on('data', onData)
    child.on('close', (code) => {
      const cpu = readyLine ? undefined : [...out.matchAll(TIMES)].at(-1)
      const cpuMs = cpu
        ? (Number(cpu[1]) * 60 + Number(cpu[2]) + Number(cpu[3]) * 60 + Number(cpu[4])) * 1000
        : undefined
      resolve({ ms: ready || performance.now() - started, code, out, cpuMs })
    })
  })
}

const out = await mkdtemp(join(tmpdir(), 'bench-conformance-cli-'))
const starts: number[] = []
const binStarts: number[] = []
const packs: number[] = []
const packsCpu: number[] = []
const comparePacks: number[] = []
const againstPacks: number[] = []
const againstCpu: number[] = []
/** A pause before each packs run: the `up` just stopped (its Anvils, npm) finishes exiting first. */
const settle = () => new Promise((resolve) => setTimeout(resolve, 500))
for (let i = 0; i < runs; i++) {
  if (compare) {
    const other = await time(['conformance', '--scenarios', compare, '--reporter', 'json', '--out', out])
    if (other.code !== 0) console.error(`conformance (${compare}) exited ${other.code}`)
    comparePacks.push(other.ms)
  }
  const start = await time(['--port', '0'], /is up at/, ['npm', 'start', '--silent', '--'])
  starts.push(start.ms)
  binStarts.push((await time(['up', '--port', '0'], /is up at/)).ms)
  const runAgainst = async () => {
    if (!against) return
    await settle()
    const other = await time(
      ['conformance', '--reporter', 'json', '--out', out],
      undefined,
      [process.execPath, 'bin/intent-devnet.js'],
      against,
    )
    if (other.code !== 0) console.error(`conformance (${against}) exited ${other.code}`)
    againstPacks.push(other.ms)
    if (other.cpuMs !== undefined) againstCpu.push(other.cpuMs)
  }
  // The two trees take turns at going first (a run right after another measured a little slower).
  if (i % 2 === 1) await runAgainst()
  await settle()
  const all = await time(['conformance', '--reporter', 'json', '--out', out])
  if (all.code !== 0) console.error(`conformance exited ${all.code}:\n${all.out.slice(-2000)}`)
  packs.push(all.ms)
  if (all.cpuMs !== undefined) packsCpu.push(all.cpuMs)
  if (i % 2 === 0) await runAgainst()
}
const s = median(starts)
const p = median(packs)
console.log(`npm start to ready (default chains):    ${(s / 1000).toFixed(2)} s (median of ${runs})`)
console.log(
  `the bin's up to ready (no npm):        ${(median(binStarts) / 1000).toFixed(2)} s (median of ${runs})`,
)
console.log(`all packs through the CLI:            ${(p / 1000).toFixed(2)} s (median of ${runs})`)
console.log(
  `ratio: ${(p / s).toFixed(2)}x npm start (goal < 3x); ${(p / median(binStarts)).toFixed(2)}x the bin's up`,
)
// Every run, in order (start and packs of a run were measured one after the other).
const list = (values: number[]) => values.map((ms) => (ms / 1000).toFixed(2)).join(' ')
console.log(
  `runs: npm start ${list(starts)} | the bin's up ${list(binStarts)} | all packs ${list(packs)} (s)`,
)
if (packsCpu.length > 0)
  console.log(
    `CPU of all packs (user+sys, process tree): ${(median(packsCpu) / 1000).toFixed(2)} s (median); runs ${list(packsCpu)} s`,
  )
if (against) {
  const a = median(againstPacks)
  const cpu = againstCpu.length > 0 ? median(againstCpu) : undefined
  console.log(
    `all packs through ${against}: ${(a / 1000).toFixed(2)} s (median of ${runs}), ${(a / s).toFixed(2)}x npm start; these ${(p / a).toFixed(2)}x those`,
  )
  if (cpu !== undefined)
    console.log(
      `CPU through ${against}: ${(cpu / 1000).toFixed(2)} s (median); runs ${list(againstCpu)} s; these ${(median(packsCpu) / cpu).toFixed(2)}x those`,
    )
  console.log(`runs through ${against}: ${list(againstPacks)} (s)`)
}
if (compare) {
  const c = median(comparePacks)
  console.log(
    `packs of ${compare}: ${(c / 1000).toFixed(2)} s (median of ${runs}), ${(c / s).toFixed(2)}x npm start; these packs ${(p / c).toFixed(2)}x those`,
  )
}
