/**
 * Kill-and-restart cycles (issue 13): `intent-devnet up --state-dir` as a real process; each
 * cycle puts intents and a deposit through it, kills the service with SIGKILL at a random moment
 * (0 to `--max-delay` ms after the work started: before, during or after fills, claims and
 * payouts), restarts it on the same state dir and checks every intent and deposit so far against
 * the chains (crashHarness.verify: accepted ⇒ COMPLETED, its transactions on chain, its recipient
 * paid exactly once; every deposit on chain paid out exactly once) and that no Anvil is left.
 * Beside it, in the same run, the same cycles stopped cleanly (SIGTERM) as the baseline for the
 * restart time.
 *
 * @example
 * npx tsx scripts/bench/crash.ts --cycles 50
 */
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import {
  anvilsLeftAfter,
  type DevnetProcess,
  killHard,
  type MadeDeposit,
  makeDeposit,
  type SubmittedIntent,
  startDevnetProcess,
  submitIntent,
  verify,
} from '../../test/crash/crashHarness'

const arg = (name: string, fallback: number) => {
  const i = process.argv.indexOf(`--${name}`)
  return i > 0 ? Number(process.argv[i + 1]) : fallback
}
const cycles = arg('cycles', 50)
const maxDelay = arg('max-delay', 2_000)
const baselineCycles = arg('baseline-cycles', 5)
const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.floor(sorted.length / 2)] ?? Number.NaN
}

/** One run of `count` cycles on a fresh state dir; `hard` kills with SIGKILL, else SIGTERM. */
async function run(count: number, hard: boolean) {
  const dir = await mkdtemp(join(tmpdir(), 'bench-crash-'))
  const intents: SubmittedIntent[] = []
  const deposits: MadeDeposit[] = []
  const restartMs: number[] = []
  const failures: string[] = []
  let survived = 0
  let devnet: DevnetProcess | undefined
  try {
    for (let cycle = 0; cycle < count; cycle++) {
      const started = performance.now()
      devnet = await startDevnetProcess(dir)
      restartMs.push(performance.now() - started)
      const violations = await verify(devnet, intents, deposits)
      if (cycle > 0 && violations.length === 0) survived++
      failures.push(...violations.map((v) => `cycle ${cycle}: ${v}`))
      const index = 1 + (cycle % 8)
      const work = Promise.allSettled([
        submitIntent(devnet, index).then((i) => intents.push(i)),
        submitIntent(devnet, index + 1).then((i) => intents.push(i)),
        makeDeposit(devnet, 9).then((d) => deposits.push(d)),
      ])
      await new Promise((r) => setTimeout(r, Math.random() * maxDelay))
      if (hard) await killHard(devnet)
      else {
        await work
        devnet.child.kill('SIGTERM')
        await devnet.exited
      }
      await work
      const left = await anvilsLeftAfter(dir)
      if (left.length > 0) failures.push(`cycle ${cycle}: Anvils left running: ${left.join(', ')}`)
      process.stdout.write(hard ? (violations.length ? 'x' : '.') : 's')
    }
    devnet = await startDevnetProcess(dir)
    const violations = await verify(devnet, intents, deposits)
    if (violations.length === 0) survived++
    failures.push(...violations.map((v) => `final: ${v}`))
    devnet.child.kill('SIGTERM')
    await devnet.exited
  } finally {
    devnet?.child.kill('SIGKILL')
    await rm(dir, { recursive: true, force: true })
  }
  return { survived, restartMs, failures, intents, deposits }
}

const baseline = await run(baselineCycles, false)
const crash = await run(cycles, true)
console.log('\n')
const accepted = crash.intents.filter((i) => i.accepted).length
console.table({
  'clean stop (SIGTERM)': {
    cycles: baselineCycles,
    'restarts with nothing lost': baseline.survived,
    'median restart ms': Math.round(median(baseline.restartMs)),
  },
  'kill -9 at a random point': {
    cycles,
    'restarts with nothing lost': crash.survived,
    'median restart ms': Math.round(median(crash.restartMs)),
  },
})
console.log(
  `kill -9: ${crash.intents.length} intents submitted (${accepted} accepted before the kill, ${crash.intents.length - accepted} cut off), ${crash.deposits.length} deposits; restart ratio kill/clean ${(median(crash.restartMs) / median(baseline.restartMs)).toFixed(2)}x`,
)
if (crash.failures.length + baseline.failures.length > 0) {
  console.log([...baseline.failures, ...crash.failures].join('\n'))
  process.exitCode = 1
}
