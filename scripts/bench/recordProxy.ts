/**
 * Bench: the recording proxy's cost. Blanc quotes (POST /intents/route) per second and p50
 * latency against the simulator directly and through `intent-devnet record`'s proxy, in the same
 * run, rounds alternating (direct then proxy, proxy then direct, …); the table gives medians and the
 * proxy's throughput as a share of direct. Goal: the proxy costs under 10% of throughput.
 *
 *   npx tsx scripts/bench/recordProxy.ts [--duration 5] [--rounds 3] [--connections 10] [--write FILE]
 *
 * Everything (simulator, proxy, autocannon) shares this process and the machine's cores, as a
 * developer's laptop would run them. The table also gives this process's CPU per quote; the
 * difference between the two paths, round by round, is what the proxy costs a quote in CPU. A last
 * phase runs the proxy in a process of its own (scripts/bench/recordProxyProcess.ts, as `intent-devnet
 * record` runs) and reads its CPU per quote there. The recording goes to a temporary journal,
 * removed at the end; `--write FILE` writes it as a scenario first (time and peak RSS printed).
 */
import { spawn } from 'node:child_process'
import { once } from 'node:events'
import { readFile, rm } from 'node:fs/promises'
import { dirname } from 'node:path'
import { createInterface } from 'node:readline'
import autocannon from 'autocannon'
import { startRecorder } from '../../conformance/record/startRecorder'
import { writeRecording } from '../../conformance/record/writeRecording'
import { startSimulator } from '../../simulator/startSimulator'

const argument = (name: string, fallback: number) => {
  const index = process.argv.indexOf(`--${name}`)
  return index >= 0 ? Number(process.argv[index + 1]) || fallback : fallback
}
const duration = argument('duration', 5)
const rounds = argument('rounds', 3)
const connections = argument('connections', 10)
/** `--write FILE`: at the end, write the whole recording (every quote of every round) as a scenario. */
const writeIndex = process.argv.indexOf('--write')
const writeTo = writeIndex >= 0 ? process.argv[writeIndex + 1] : undefined

const sim = await startSimulator({ port: 0, host: '127.0.0.1', chainIds: [10, 8453], apiKey: 'bench-key' })
const recorder = await startRecorder({ target: sim.baseUrl, apiKey: sim.apiKey, port: 0 })
const manifest = sim.manifest()
const usdc = manifest.chains.find((c) => c.chainId === 8453)!.tokens.find((t) => t.symbol === 'USDC')!.address
const body = JSON.stringify({
  destinationChainId: 8453,
  tokenRequests: [{ tokenAddress: usdc, amount: '1000000' }],
  account: { address: manifest.accounts[0]!.address, accountType: 'EOA' },
})
const options = (url: string): autocannon.Options => ({
  url: `${url}/intents/route`,
  method: 'POST',
  headers: { 'x-api-key': sim.apiKey, 'x-api-version': '2026-04.blanc', 'content-type': 'application/json' },
  body,
  connections,
})

type Run = { rps: number; p50: number; cpuMs: number }
async function measure(url: string, seconds: number): Promise<Run> {
  const cpu = process.cpuUsage()
  const result = await autocannon({ ...options(url), duration: seconds })
  const used = process.cpuUsage(cpu)
  if (result.non2xx > 0 || result.errors > 0)
    throw new Error(`${url}: ${result.non2xx} non-2xx answers, ${result.errors} errors`)
  // This process's CPU (simulator, proxy and load generator) per answered request.
  const cpuMs = (used.user + used.system) / 1000 / Math.max(1, result.requests.total)
  return { rps: result.requests.average, p50: result.latency.p50, cpuMs }
}

/** The proxy in a process of its own (scripts/bench/recordProxyProcess.ts): its CPU per quote, measured there. */
async function proxyProcessCpu(): Promise<number> {
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', 'scripts/bench/recordProxyProcess.ts', sim.baseUrl, sim.apiKey],
    {
      stdio: ['pipe', 'pipe', 'inherit'],
    },
  )
  const lines = createInterface({ input: child.stdout! })[Symbol.asyncIterator]()
  const nextLine = async () => String((await lines.next()).value ?? '')
  try {
    const url = (await nextLine()).replace(/^url /, '')
    await measure(url, 2)
    child.stdin!.write('cpu\n')
    const [, cpuBefore = '0', countBefore = '0'] = (await nextLine()).split(' ')
    await measure(url, duration)
    child.stdin!.write('cpu\n')
    const [, cpuAfter = '0', countAfter = '0'] = (await nextLine()).split(' ')
    return (Number(cpuAfter) - Number(cpuBefore)) / Math.max(1, Number(countAfter) - Number(countBefore))
  } finally {
    child.stdin!.end()
    await once(child, 'exit')
  }
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!
try {
  await measure(sim.baseUrl, 2)
  await measure(recorder.url, 2)
  const direct: Run[] = []
  const proxied: Run[] = []
  for (let round = 0; round < rounds; round++) {
    // Alternate which goes first, so neither profits from the other's warm-up.
    if (round % 2 === 0) {
      direct.push(await measure(sim.baseUrl, duration))
      proxied.push(await measure(recorder.url, duration))
    } else {
      proxied.push(await measure(recorder.url, duration))
      direct.push(await measure(sim.baseUrl, duration))
    }
  }
  const row = (name: string, runs: Run[]) =>
    `| ${name} | ${median(runs.map((r) => r.rps)).toFixed(0)} | ${median(runs.map((r) => r.p50)).toFixed(1)} | ${median(runs.map((r) => r.cpuMs)).toFixed(3)} |`
  const share = median(proxied.map((p, i) => p.rps / direct[i]!.rps))
  console.log(`blanc quotes, ${connections} connections, ${rounds} rounds of ${duration}s each (medians)\n`)
  console.log('| path | quotes/s | p50 ms | CPU ms / quote (this process) |\n| --- | ---: | ---: | ---: |')
  console.log(row('direct to the simulator', direct))
  console.log(row('through the recording proxy', proxied))
  console.log(
    `\nproxy throughput = ${(share * 100).toFixed(1)}% of direct (cost ${((1 - share) * 100).toFixed(1)}%; goal < 10%)`,
  )
  const proxyCpu = median(proxied.map((p, i) => p.cpuMs - direct[i]!.cpuMs))
  console.log(
    `the proxy's CPU per quote: ${(proxyCpu * 1000).toFixed(0)} µs (proxied minus direct, same round)`,
  )
  console.log(
    `rounds (quotes/s, direct / proxied): ${direct.map((d, i) => `${d.rps.toFixed(0)} / ${proxied[i]!.rps.toFixed(0)}`).join(', ')}`,
  )
  console.log(
    `the proxy alone in its own process: ${(await proxyProcessCpu()).toFixed(0)} µs of CPU per quote`,
  )
  console.log(
    `recorded ${recorder.recording().counts.http} exchanges (journal ${recorder.recording().journal})`,
  )
  console.log(`load average: ${(await readFile('/proc/loadavg', 'utf8').catch(() => 'n/a')).trim()}`)
} finally {
  const recording = await recorder.stop()
  if (writeTo) {
    const started = performance.now()
    const written = await writeRecording(recording, writeTo)
    console.log(
      `wrote ${written.steps} steps from ${recording.counts.http} exchanges in ${((performance.now() - started) / 1000).toFixed(1)} s; ` +
        `this process's peak RSS ${(process.resourceUsage().maxRSS / 1024).toFixed(0)} MB, heap now ${(process.memoryUsage().heapUsed / 1e6).toFixed(0)} MB`,
    )
  }
  await rm(dirname(recording.journal), { recursive: true, force: true })
  await sim.close()
}
