/**
 * Bench: the recording proxy's cost. Blanc quotes (POST /intents/route) per second and p50
 * latency against the simulator directly and through `intent-devnet record`'s proxy, in the same
 * run, rounds alternating (direct then proxy, proxy then direct, …); the table gives medians and the
 * proxy's throughput as a share of direct. Goal: the proxy costs under 10% of throughput.
 *
 *   npx tsx scripts/bench/recordProxy.ts [--duration 5] [--rounds 3] [--connections 10]
 *
 * Everything (simulator, proxy, autocannon) shares this process and the machine's cores, as a
 * developer's laptop would run them.
 */
import autocannon from 'autocannon'
import { startRecorder } from '../../conformance/record/startRecorder'
import { startSimulator } from '../../simulator/startSimulator'

const argument = (name: string, fallback: number) => {
  const index = process.argv.indexOf(`--${name}`)
  return index >= 0 ? Number(process.argv[index + 1]) || fallback : fallback
}
const duration = argument('duration', 5)
const rounds = argument('rounds', 3)
const connections = argument('connections', 10)

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

async function measure(url: string, seconds: number) {
  const result = await autocannon({ ...options(url), duration: seconds })
  if (result.non2xx > 0 || result.errors > 0)
    throw new Error(`${url}: ${result.non2xx} non-2xx answers, ${result.errors} errors`)
  return { rps: result.requests.average, p50: result.latency.p50 }
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!
try {
  await measure(sim.baseUrl, 2)
  await measure(recorder.url, 2)
  const direct: { rps: number; p50: number }[] = []
  const proxied: { rps: number; p50: number }[] = []
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
  const row = (name: string, runs: { rps: number; p50: number }[]) =>
    `| ${name} | ${median(runs.map((r) => r.rps)).toFixed(0)} | ${median(runs.map((r) => r.p50)).toFixed(1)} |`
  const share = median(proxied.map((p, i) => p.rps / direct[i]!.rps))
  console.log(`blanc quotes, ${connections} connections, ${rounds} rounds of ${duration}s each (medians)\n`)
  console.log('| path | quotes/s | p50 ms |\n| --- | ---: | ---: |')
  console.log(row('direct to the simulator', direct))
  console.log(row('through the recording proxy', proxied))
  console.log(
    `\nproxy throughput = ${(share * 100).toFixed(1)}% of direct (cost ${((1 - share) * 100).toFixed(1)}%; goal < 10%)`,
  )
  console.log(`recorded ${recorder.recording().events.length} exchanges`)
} finally {
  await recorder.stop()
  await sim.close()
}
