/**
 * Bench: memory of the blanc quote store (issue 13). One simulator (four chains) in this process.
 *
 * 1. Resident memory (RSS) of this process (the service; the Anvils are other processes) idle,
 *    during `--load` seconds of blanc quotes over HTTP (autocannon in a child process,
 *    `--connections`, 8 accounts in turn), and for `--idle` seconds after the load ends. No GC is
 *    forced here: this is what the service itself gives back.
 * 2. The sweep timer: the devnet clock is moved past the quotes' lifetime and, with no new quote,
 *    the store must be empty within one sweep interval; RSS then, and after one forced GC.
 *    Quote lifetime under load: quotes made just before the load are probed over HTTP every 5 s
 *    (a submit with well-formed but wrong signatures: 400 while the quote is kept, 404 once it is
 *    not); a quote's lifetime is the devnet time from its quote to its first 404. Run with
 *    `--load 310` to hold the load for a whole 300 s lifetime.
 * 3. Bytes per stored route: heap after a forced GC, before and after `--quotes` blanc quotes
 *    kept in the store, over the routes kept; beside a baseline of the same quotes with the store
 *    emptied after each one (what quoting costs with nothing kept), in the same run.
 *
 *   node --expose-gc --import tsx scripts/bench/quoteMemory.ts [--quotes 2000] [--load 60] [--idle 60] [--connections 8]
 *   (npm run bench:quoteMemory -- …)
 */
import { spawn } from 'node:child_process'
import { createRequire } from 'node:module'
import { loadavg } from 'node:os'
import { setTimeout as sleep } from 'node:timers/promises'
import type autocannon from 'autocannon'
import { parseUnits } from 'viem'
import { tokensByChain } from '../../contracts/addresses'
import type { QuotingServiceInstance } from '../../simulator/quoting/createQuotingService'
import { DEFAULT_SWEEP_INTERVAL_MS } from '../../simulator/quoting/quoteStore'
import { DEFAULT_QUOTE_TTL_SECONDS, startSimulator } from '../../simulator/startSimulator'
import type { RouteRequest } from '../../spec'

const gc = (globalThis as { gc?: () => void }).gc
if (!gc) throw new Error('Run with node --expose-gc --import tsx (npm run bench:quoteMemory).')
const argument = (name: string, fallback: number) => {
  const index = process.argv.indexOf(`--${name}`)
  return index >= 0 ? Number(process.argv[index + 1]) || fallback : fallback
}
const quoteCount = argument('quotes', 2_000)
const loadSeconds = argument('load', 60)
const idleSeconds = argument('idle', 60)
const connections = argument('connections', 8)
const MB = 1024 * 1024
const mb = (bytes: number) => `${(bytes / MB).toFixed(0)} MB`
const heapAfterGc = () => {
  gc()
  gc()
  return process.memoryUsage().heapUsed
}

const sim = await startSimulator({ port: 0 })
const quoting = sim.services.quoting as QuotingServiceInstance
const usdc = tokensByChain[8453]?.find((t) => t.symbol === 'USDC')?.address as string
const accounts = sim.devnet.keys.accounts.slice(0, 8)
const requestFor = (i: number): RouteRequest =>
  ({
    destinationChainId: 8453,
    tokenRequests: [{ tokenAddress: usdc, amount: parseUnits(String(100 + (i % 50)), 6).toString() }],
    account: { address: accounts[i % accounts.length]?.address, accountType: 'EOA' },
  }) as RouteRequest

for (let i = 0; i < 200; i++) await quoting.quoteEvery(requestFor(i)) // warm-up (JIT, caches)
await quoting.resetQuotes()

// 1. RSS idle, under load over HTTP, and after (no GC forced).
const LOAD_CHILD = `
const { autocannon: path, options } = JSON.parse(process.env.BENCH_LOAD)
const autocannon = require(path)
const { bodies, ...rest } = options
let next = 0
autocannon({ ...rest, requests: [{ setupRequest: (request) => ({ ...request, body: bodies[next++ % bodies.length] }) }] })
  .then((result) => process.stdout.write(JSON.stringify({ total: result.requests.total, non2xx: result.non2xx, errors: result.errors })))`
const autocannonPath = createRequire(import.meta.url).resolve('autocannon')
function load(options: autocannon.Options & { bodies: string[] }) {
  return new Promise<{ total: number; non2xx: number; errors: number }>((resolve, reject) => {
    const child = spawn(process.execPath, ['-e', LOAD_CHILD], {
      env: { ...process.env, BENCH_LOAD: JSON.stringify({ autocannon: autocannonPath, options }) },
      stdio: ['ignore', 'pipe', 'inherit'],
    })
    let out = ''
    child.stdout.on('data', (chunk: Buffer) => {
      out += chunk
    })
    child.once('error', reject)
    child.once('exit', (code) =>
      code === 0 ? resolve(JSON.parse(out)) : reject(new Error(`autocannon exited with ${code}`)),
    )
  })
}
await sleep(5_000)
const idleRss = process.memoryUsage().rss
const samples: { t: number; rss: number; heap: number; heapTotal: number; quotes: number; bytes: number }[] =
  []
const sample = (t: number) => {
  const { rss, heapUsed, heapTotal } = process.memoryUsage()
  samples.push({
    t,
    rss,
    heap: heapUsed,
    heapTotal,
    quotes: quoting.quotes.size,
    bytes: quoting.quotes.bytes,
  })
}
// Quotes made just before the load, probed over HTTP while it runs.
const probed = await Promise.all(
  [0, 1, 2, 3].map(async (i) => {
    const response = await fetch(`${sim.baseUrl}/intents/route`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'x-api-key': sim.apiKey,
        'x-api-version': '2026-04.blanc',
      },
      body: JSON.stringify(requestFor(i)),
    })
    const { routes } = (await response.json()) as { routes: { intentId: string; expiresAt: number }[] }
    return { ...routes[0]!, quotedAt: sim.devnet.now(), lastKept: 0, goneAt: undefined as number | undefined }
  }),
)
const WRONG = `0x${'11'.repeat(65)}`
async function probe() {
  for (const quote of probed) {
    if (quote.goneAt !== undefined) continue
    const response = await fetch(`${sim.baseUrl}/intents/${quote.intentId}/submit`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'x-api-key': sim.apiKey,
        'x-api-version': '2026-04.blanc',
      },
      body: JSON.stringify({ signatures: { origin: [WRONG], destination: WRONG } }),
    })
    await response.arrayBuffer()
    if (response.status === 404) quote.goneAt = sim.devnet.now()
    else quote.lastKept = sim.devnet.now()
  }
}
const loadStart = Date.now()
const sampler = setInterval(() => sample((Date.now() - loadStart) / 1000), 1_000)
const prober = setInterval(() => void probe(), 5_000)
const result = await load({
  url: `${sim.baseUrl}/intents/route`,
  method: 'POST',
  headers: { 'content-type': 'application/json', 'x-api-key': sim.apiKey, 'x-api-version': '2026-04.blanc' },
  bodies: accounts.map((_, i) => JSON.stringify(requestFor(i))),
  connections,
  duration: loadSeconds,
})
const loadEnd = Date.now()
sample((loadEnd - loadStart) / 1000)
const atEnd = samples[samples.length - 1]
const peak = samples.reduce((a, b) => (b.rss > a.rss ? b : a))
const quoteRate = result.total / loadSeconds
await probe()
await sleep(idleSeconds * 1_000)
clearInterval(prober)
await probe()
sample((Date.now() - loadStart) / 1000)
clearInterval(sampler)
const after = samples[samples.length - 1]

// 2. The sweep timer: past the lifetime, no new quote.
const quotesBeforeSweep = quoting.quotes.size
await fetch(`${sim.baseUrl}/_devnet/clock/advance`, {
  method: 'POST',
  headers: { 'content-type': 'application/json', 'x-api-key': sim.apiKey },
  body: JSON.stringify({ seconds: DEFAULT_QUOTE_TTL_SECONDS }),
})
const sweepStart = Date.now()
while (quoting.quotes.size > 0 && Date.now() - sweepStart < DEFAULT_SWEEP_INTERVAL_MS + 5_000)
  await sleep(100)
const sweptAfterMs = Date.now() - sweepStart
const quotesAfterSweep = quoting.quotes.size
await sleep(Math.max(0, 15_000 - sweptAfterMs))
const afterSweep = process.memoryUsage()
const heapAfterForcedGc = heapAfterGc()
await sleep(2_000)
const rssAfterGc = process.memoryUsage().rss

// 3. Bytes per stored route (last: its forced GCs would make the RSS figures above lower than the service's own).
let routes = 0
let before = heapAfterGc()
for (let i = 0; i < quoteCount; i++) {
  routes += (await quoting.quoteEvery(requestFor(i))).routes.length
  await quoting.resetQuotes()
}
const baselinePerRoute = (heapAfterGc() - before) / routes
before = heapAfterGc()
const started = performance.now()
for (let i = 0; i < quoteCount; i++) await quoting.quoteEvery(requestFor(i))
const msPerQuote = (performance.now() - started) / quoteCount
const stored = quoting.quotes.size
const storedPerRoute = (heapAfterGc() - before) / stored
await quoting.resetQuotes()

console.log(`\nQuote store memory (Node ${process.version}, load average ${loadavg()[0]?.toFixed(1)})\n`)
console.log('| Measure | Value |')
console.log('|---|---|')
console.log(`| routes per blanc quote | ${(routes / quoteCount).toFixed(1)} |`)
console.log(
  `| heap per route, store emptied after each quote (baseline) | ${baselinePerRoute.toFixed(0)} B |`,
)
console.log(`| heap per route kept in the store (${stored} routes) | ${storedPerRoute.toFixed(0)} B |`)
console.log(`| in-process blanc quote (no HTTP) | ${msPerQuote.toFixed(1)} ms |`)
console.log(
  `| quote lifetime under load (${probed.length} quotes made before it, probed every 5 s) | ${probed
    .map((q) =>
      q.goneAt === undefined
        ? `kept ≥ ${q.lastKept - q.quotedAt} s (expiresAt in ${q.expiresAt - q.quotedAt} s)`
        : `${q.goneAt - q.quotedAt} s (expiresAt ${q.expiresAt - q.quotedAt} s; last kept at ${q.lastKept - q.quotedAt} s)`,
    )
    .join('; ')} |`,
)
console.log(
  `| store at the end of the load | ${atEnd?.quotes} routes, counted ${mb(atEnd?.bytes ?? 0)} of the ${mb(quoting.quotes.maxBytes)} budget; refused (503) ${result.non2xx} |`,
)
console.log(`| RSS idle, before load | ${mb(idleRss)} |`)
console.log(
  `| load: ${loadSeconds} s, ${connections} connections | ${quoteRate.toFixed(0)} quotes/s (${result.non2xx} non-2xx, ${result.errors} errors) |`,
)
console.log(
  `| RSS peak during load | ${mb(peak.rss)} at ${peak.t.toFixed(0)} s (${peak.quotes} routes stored) |`,
)
console.log(
  `| RSS at the end of the load | ${mb(atEnd?.rss ?? 0)} (heap used ${mb(atEnd?.heap ?? 0)} of ${mb(atEnd?.heapTotal ?? 0)}, ${atEnd?.quotes} routes) |`,
)
console.log(
  `| RSS ${idleSeconds} s after the load | ${mb(after?.rss ?? 0)} (heap used ${mb(after?.heap ?? 0)} of ${mb(after?.heapTotal ?? 0)}, ${after?.quotes} routes, still live) |`,
)
console.log(
  `| clock moved past the lifetime, no new quote: store | ${quotesBeforeSweep} → ${quotesAfterSweep} routes in ${(sweptAfterMs / 1000).toFixed(1)} s |`,
)
console.log(
  `| RSS 15 s after the sweep | ${mb(afterSweep.rss)} (heap used ${mb(afterSweep.heapUsed)} of ${mb(afterSweep.heapTotal)}, external ${mb(afterSweep.external)}) |`,
)
console.log(`| RSS after a forced GC, store empty | ${mb(rssAfterGc)} (heap used ${mb(heapAfterForcedGc)}) |`)
console.log('\nRSS every 5 s (t from the start of the load):')
console.log(
  samples
    .filter((_, i) => i % 5 === 0 || i === samples.length - 1)
    .map((s) => `${s.t.toFixed(0)}s ${mb(s.rss)} (${s.quotes})`)
    .join(', '),
)
await sim.close()
