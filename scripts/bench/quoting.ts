/**
 * Bench: POST /intents/route (alps and blanc) under load on loopback, beside a bare Fastify route
 * and a bare Multicall3 balance read (one eth_call) to one Anvil, in the same run; and the RPC
 * round trips per quote. Quotes are asked for one account, and in turn for 8 accounts.
 *
 * The load generator (autocannon) runs in a child process, so it does not share the servers'
 * event loop; the servers (bare route, service, its quoting) share this process's main thread.
 * Two rows serve the same route with quoting stubbed (a fixed, real answer): the HTTP floor.
 *
 *   npx tsx scripts/bench/quoting.ts [--duration 5] [--rounds 1]
 *
 * With several rounds every row is measured once per round (all rows in turn), and the table gives
 * medians; the ratio to the bare route is taken per round, against the bare route of that round.
 * Before the first round every target runs untimed for 3 s (steady state, not start-up).
 */
import { spawn } from 'node:child_process'
import { createRequire } from 'node:module'
import { loadavg } from 'node:os'
import type autocannon from 'autocannon'
import Fastify from 'fastify'
import { encodeFunctionData, erc20Abi, parseUnits } from 'viem'
import { addresses, tokensByChain } from '../../contracts/addresses'
import * as artifacts from '../../contracts/generated/artifacts'
import { startDevnet } from '../../simulator/devnet/startDevnet'
import { withHttpFaults } from '../../simulator/faultInjection/http/httpFaults'
import { createFaults } from '../../simulator/faults/faults'
import { buildApp } from '../../simulator/http/app'
import { stubServices } from '../../simulator/http/testing/stubServices'
import type { QuoteResult } from '../../simulator/quoting/quote'
import type { KeptRoute } from '../../simulator/quoting/quotingService'
import { createTestQuoting } from '../../simulator/quoting/testing/createTestQuoting'

const argument = (name: string, fallback: number) => {
  const index = process.argv.indexOf(`--${name}`)
  return index >= 0 ? Number(process.argv[index + 1]) || fallback : fallback
}
const duration = argument('duration', 5)
const rounds = argument('rounds', 1)
const devnet = await startDevnet({ chainIds: [1, 8453], accountCount: 8 })
const quoting = createTestQuoting({
  chains: devnet.chains,
  server: devnet.keys.server.account,
  clock: devnet,
})
// Quotes the service answered (counted around the service, so quotes still in flight when a run stops count too).
let quotesAnswered = 0
const counted = <T>(promise: Promise<T>) => promise.finally(() => quotesAnswered++)
const app = await buildApp(
  { apiKeys: ['bench'] },
  stubServices({
    clock: devnet,
    quoting: {
      ...quoting,
      quoteBest: (request) => counted(quoting.quoteBest(request)),
      quoteEvery: (request) => counted(quoting.quoteEvery(request)),
    },
  }),
  // The fault plugin on an empty registry, as the simulator runs (every fault off).
  { plugins: [withHttpFaults(createFaults())] },
)
const base = await app.listen({ port: 0, host: '127.0.0.1' })
// The HTTP floor: the same app and route, its quoting replaced by a fixed, real answer (computed
// once below), so a request costs everything but the quote (hooks, validation, serialization, I/O).
const fixed: { best?: QuoteResult; every?: { routes: KeptRoute[] } } = {}
const stubbed = await buildApp(
  { apiKeys: ['bench'] },
  stubServices({
    clock: devnet,
    quoting: {
      ...quoting,
      quoteBest: async () => fixed.best!,
      quoteEvery: async () => fixed.every!,
    },
  }),
  // The fault plugin on an empty registry, as the simulator runs (every fault off).
  { plugins: [withHttpFaults(createFaults())] },
)
const stubbedBase = await stubbed.listen({ port: 0, host: '127.0.0.1' })
const bare = Fastify()
bare.post('/bare', async () => ({ ok: true }))
const bareUrl = await bare.listen({ port: 0, host: '127.0.0.1' })

const account = devnet.keys.accounts[0]?.address as `0x${string}`
const usdc = tokensByChain[8453]?.find((t) => t.symbol === 'USDC')?.address as `0x${string}`
const bodyFor = (address: string) =>
  JSON.stringify({
    destinationChainId: 8453,
    tokenRequests: [{ tokenAddress: usdc, amount: parseUnits('100', 6).toString() }],
    account: { address, accountType: 'EOA' },
  })
const body = bodyFor(account)
const bodies = devnet.keys.accounts.map((a) => bodyFor(a.address))

/** autocannon in a child process (in a worker thread it answers raw histograms); `bodies`, when given, are sent in turn. */
const LOAD_CHILD = `
const { autocannon: path, options } = JSON.parse(process.env.BENCH_LOAD)
const autocannon = require(path)
const { bodies, ...rest } = options
let next = 0
const requests = bodies ? [{ setupRequest: (request) => ({ ...request, body: bodies[next++ % bodies.length] }) }] : undefined
autocannon({ ...rest, ...(requests ? { requests } : {}) }).then((result) => process.stdout.write(JSON.stringify(result)))`
const autocannonPath = createRequire(import.meta.url).resolve('autocannon')
function load(options: autocannon.Options & { bodies?: string[] | undefined }): Promise<autocannon.Result> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['-e', LOAD_CHILD], {
      env: { ...process.env, BENCH_LOAD: JSON.stringify({ autocannon: autocannonPath, options }) },
      stdio: ['ignore', 'pipe', 'inherit'],
    })
    let out = ''
    child.stdout.on('data', (chunk: Buffer) => {
      out += chunk
    })
    child.once('error', reject)
    child.once('exit', (code) => {
      if (code === 0) resolve(JSON.parse(out) as autocannon.Result)
      else reject(new Error(`autocannon exited with ${code}`))
    })
  })
}

const multicallData = encodeFunctionData({
  abi: artifacts.Multicall3.abi,
  functionName: 'aggregate3',
  args: [
    (tokensByChain[8453] ?? []).map((t) => ({
      target: t.address,
      allowFailure: true,
      callData: encodeFunctionData({ abi: erc20Abi, functionName: 'balanceOf', args: [account] }),
    })),
  ],
})
const ethCall = JSON.stringify({
  jsonrpc: '2.0',
  id: 1,
  method: 'eth_call',
  params: [{ to: addresses.multicall3, data: multicallData }, 'latest'],
})

fixed.best = await quoting.quoteBest(JSON.parse(body))
const alpsTrips = quoting.lastQuoteRpcRoundTrips()
fixed.every = await quoting.quoteEvery(JSON.parse(body))
const blancTrips = quoting.lastQuoteRpcRoundTrips()

const targets = [
  {
    name: 'bare Fastify POST',
    url: `${bareUrl}/bare`,
    headers: { 'content-type': 'application/json' },
    body: '{}',
  },
  {
    name: 'bare Multicall3 eth_call (Anvil 8453)',
    url: devnet.chain(8453).rpcUrl,
    headers: { 'content-type': 'application/json' },
    body: ethCall,
  },
  {
    name: 'POST /intents/route alps, quoting stubbed (HTTP floor)',
    url: `${stubbedBase}/intents/route`,
    headers: { 'content-type': 'application/json', 'x-api-key': 'bench', 'x-api-version': '2026-01.alps' },
    body,
  },
  {
    name: 'POST /intents/route blanc, quoting stubbed (HTTP floor)',
    url: `${stubbedBase}/intents/route`,
    headers: { 'content-type': 'application/json', 'x-api-key': 'bench', 'x-api-version': '2026-04.blanc' },
    body,
  },
  {
    name: 'POST /intents/route alps',
    url: `${base}/intents/route`,
    headers: { 'content-type': 'application/json', 'x-api-key': 'bench', 'x-api-version': '2026-01.alps' },
    body,
  },
  {
    name: 'POST /intents/route blanc',
    url: `${base}/intents/route`,
    headers: { 'content-type': 'application/json', 'x-api-key': 'bench', 'x-api-version': '2026-04.blanc' },
    body,
  },
  {
    name: 'POST /intents/route alps, 8 accounts',
    url: `${base}/intents/route`,
    headers: { 'content-type': 'application/json', 'x-api-key': 'bench', 'x-api-version': '2026-01.alps' },
    body,
    bodies,
  },
  {
    name: 'POST /intents/route blanc, 8 accounts',
    url: `${base}/intents/route`,
    headers: { 'content-type': 'application/json', 'x-api-key': 'bench', 'x-api-version': '2026-04.blanc' },
    body,
    bodies,
  },
]
type Measure = { rps: number; p50: number; p99: number; busy: number; errors: number }
const measures = new Map<string, Measure[]>()
const wire = new Map<string, number[]>()
const loads: number[] = []
// Steady state: every target runs untimed for 3 s first (JIT, caches, sockets), then the rounds.
for (const target of targets)
  await load({
    url: target.url,
    method: 'POST',
    headers: target.headers,
    body: target.body,
    bodies: 'bodies' in target ? target.bodies : undefined,
    connections: 32,
    duration: 3,
  })
for (let round = 0; round < rounds; round++)
  for (const target of targets)
    for (const connections of [1, 32]) {
      loads.push(loadavg()[0] ?? 0)
      const options = {
        url: target.url,
        method: 'POST' as const,
        headers: target.headers,
        body: target.body,
        bodies: 'bodies' in target ? target.bodies : undefined,
        connections,
      }
      await load({ ...options, duration: 1 }) // warm-up (JIT, sockets), not counted
      const tripsBefore = quoting.rpcRoundTrips()
      const quotesBefore = quotesAnswered
      const eluBefore = performance.eventLoopUtilization()
      const result = await load({ ...options, duration })
      // Time this thread (bare route, service, quoting) was busy, per answered request.
      const busy = performance.eventLoopUtilization(eluBefore).active / Math.max(1, result.requests.total)
      const key = `${target.name}|${connections}`
      const list = measures.get(key) ?? []
      list.push({
        rps: result.requests.average,
        p50: result.latency.p50,
        p99: result.latency.p99,
        busy,
        errors: result.errors + result.non2xx,
      })
      measures.set(key, list)
      // Every JSON-RPC request the quoting clients sent for the run's quotes, over those quotes
      // (after the quotes still in flight when autocannon stopped are done).
      await new Promise((resolve) => setTimeout(resolve, 500))
      if (target.name.startsWith('POST /intents/route') && !target.name.includes('stubbed'))
        wire.set(key, [
          ...(wire.get(key) ?? []),
          (quoting.rpcRoundTrips() - tripsBefore) / (quotesAnswered - quotesBefore),
        ])
      console.error(
        `round ${round + 1}: ${target.name}, ${connections} conn.: ${Math.round(result.requests.average)} req/s`,
      )
    }

const median = (values: number[]) => {
  const sorted = [...values].sort((x, y) => x - y)
  const mid = sorted.length >> 1
  return sorted.length % 2
    ? (sorted[mid] as number)
    : ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2
}
const bareRps = measures.get('bare Fastify POST|32')?.map((m) => m.rps) ?? []
console.log(
  `Quoting bench (${new Date().toISOString().slice(0, 10)}, 2 chains, ${rounds} round(s) of ${duration} s per row, medians; loopback, shared 2-core box; load average at row starts ${Math.min(...loads).toFixed(1)}–${Math.max(...loads).toFixed(1)})\n`,
)
console.log(
  '| target | connections | req/s | p50 ms | p99 ms | server thread busy, ms/request | ÷ bare route (per round) | errors |',
)
console.log('|---|---|---|---|---|---|---|---|')
for (const target of targets)
  for (const connections of [1, 32]) {
    const list = measures.get(`${target.name}|${connections}`) ?? []
    const isRpc = target.url.startsWith(devnet.chain(8453).rpcUrl)
    // The ratio to the bare route measured in the same round (minutes apart at most).
    const ratios =
      connections === 32 && target.name.startsWith('POST')
        ? list.map((m, i) => m.rps / (bareRps[i] ?? Number.NaN)).map((r) => r.toFixed(3))
        : []
    console.log(
      `| ${target.name} | ${connections} | ${Math.round(median(list.map((m) => m.rps)))} | ${median(list.map((m) => m.p50))} | ${median(list.map((m) => m.p99))} | ${isRpc ? '–' : median(list.map((m) => m.busy)).toFixed(3)} | ${ratios.join(', ') || '–'} | ${list.reduce((s, m) => s + m.errors, 0)} |`,
    )
  }
console.log(
  `\nRPC round trips per quote: alps ${alpsTrips}, blanc ${blancTrips} (2 chains: one Multicall3 eth_call per chain).`,
)
console.log(
  `Round trips on the wire per answered quote, whole runs (connections, per round): ${[...wire]
    .map(
      ([key, values]) => `${key.slice(20).replace('|', ' ')}: ${values.map((v) => v.toFixed(2)).join('/')}`,
    )
    .join('; ')}.`,
)
await app.close()
await stubbed.close()
await bare.close()
await devnet.stop()
