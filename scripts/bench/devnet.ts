/**
 * Devnet cold start and idle memory.
 *
 * - bare: 4 Anvil processes started in parallel until each listens (the floor);
 * - devnet: `startDevnet()` until ready (4 chains, every contract placed and initialized, every
 *   account funded, Compact deposits made);
 * each measured `--runs` times (default 7), median reported; then the resident memory (VmRSS
 * from /proc) of this process and of the 4 Anvils, with the devnet idle.
 *
 * @example
 * npx tsx scripts/bench/devnet.ts --runs 7
 */
import { spawn } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { anvilBinaryPath, startAnvil } from '../../simulator/devnet/anvil'
import { startDevnet } from '../../simulator/devnet/startDevnet'

const runsArg = process.argv.indexOf('--runs')
const runs = runsArg > 0 ? Number(process.argv[runsArg + 1]) : 7
const chainIds = [1, 10, 8453, 42161]

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b)
  const mid = Math.floor(sorted.length / 2)
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2
}
const rssKiB = (pid: number | 'self') => {
  const match = readFileSync(`/proc/${pid}/status`, 'utf8').match(/VmRSS:\s+(\d+) kB/)
  return match ? Number(match[1]) : 0
}

/**
 * The launcher before issue 17, as the baseline of `startAnvil` (@viem/anvil with its process
 * group, parent-death signal and pid wrapper): a plain spawn of the binary until it prints
 * "Listening on", then SIGTERM.
 */
async function spawnAnvil(chainId: number) {
  const child = spawn(
    anvilBinaryPath(),
    ['--port', '0', '--chain-id', String(chainId), '--hardfork', 'prague'],
    {
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  )
  await new Promise<void>((resolve, reject) => {
    let out = ''
    child.stdout.on('data', (chunk) => {
      out += chunk
      if (out.includes('Listening on')) resolve()
    })
    child.once('exit', () => reject(new Error('anvil exited')))
  })
  return {
    stop: () =>
      new Promise<void>((resolve) => {
        child.once('exit', () => resolve())
        child.kill('SIGTERM')
      }),
  }
}

// One warm-up of each, so module loading and the first JIT do not land in the first run.
await Promise.all(
  (await Promise.all(chainIds.map((chainId) => startAnvil({ chainId })))).map((a) => a.stop()),
)
await (await startDevnet({ chainIds })).stop()

const bare: number[] = []
const spawned: number[] = []
const devnet: number[] = []
for (let i = 0; i < runs; i++) {
  let started = performance.now()
  const anvils = await Promise.all(chainIds.map((chainId) => startAnvil({ chainId })))
  bare.push(performance.now() - started)
  await Promise.all(anvils.map((anvil) => anvil.stop()))

  started = performance.now()
  const plain = await Promise.all(chainIds.map((chainId) => spawnAnvil(chainId)))
  spawned.push(performance.now() - started)
  await Promise.all(plain.map((anvil) => anvil.stop()))

  started = performance.now()
  const running = await startDevnet({ chainIds })
  devnet.push(performance.now() - started)
  await running.stop()
}

const idle = await startDevnet({ chainIds })
await new Promise((resolve) => setTimeout(resolve, 2_000))
const selfKiB = rssKiB('self')
const anvilKiB = idle.pids().map((pid) => rssKiB(pid))
await idle.stop()

const fmt = (ms: number) => `${ms.toFixed(0)} ms`
const mib = (kib: number) => `${(kib / 1024).toFixed(0)} MiB`
const result = {
  runs,
  bareMedianMs: Math.round(median(bare)),
  plainSpawnMedianMs: Math.round(median(spawned)),
  launcherRatio: Number((median(bare) / median(spawned)).toFixed(2)),
  devnetMedianMs: Math.round(median(devnet)),
  ratio: Number((median(devnet) / median(bare)).toFixed(2)),
  bareRunsMs: bare.map(Math.round),
  devnetRunsMs: devnet.map(Math.round),
  rssMiB: {
    node: Math.round(selfKiB / 1024),
    anvils: anvilKiB.map((kib) => Math.round(kib / 1024)),
    total: Math.round((selfKiB + anvilKiB.reduce((a, b) => a + b, 0)) / 1024),
  },
  load: readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' '),
}
console.log(
  `4 bare Anvils, median of ${runs}: ${fmt(median(bare))} through startAnvil (@viem/anvil), ${fmt(median(spawned))} by a plain spawn (${result.launcherRatio}x)`,
)
console.log(
  `devnet ready (4 chains, placed, funded), median of ${runs}: ${fmt(median(devnet))}  (${result.ratio}x bare)`,
)
console.log(
  `idle RSS: node ${mib(selfKiB)} + anvils ${anvilKiB.map(mib).join(' / ')} = ${result.rssMiB.total} MiB`,
)
console.log(JSON.stringify(result))
