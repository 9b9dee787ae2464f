/**
 * Bench: the balance clients' transport, hand-written `keepAliveTransport` (node:http keep-alive
 * sockets, JSON-RPC batches of one synchronous run) against viem's own `http(url, { batch: true })`
 * (fetch/undici; also with `fetchOptions: { keepalive: true }`), for the quoting workload, in the
 * same run against the same real Anvils (chains 1 and 8453), variants alternating.
 *
 *   npx tsx scripts/bench/transport.ts [--duration 2] [--rounds 5]
 *
 * Workloads, each measured `duration` seconds per variant per round (after 0.5 s untimed):
 * - reads, 1 account: `readBalances` for one account, in a loop (one eth_call per chain each);
 * - reads, 8 accounts: 8 `readBalances` asked at once (coalesced: one HTTP request per chain
 *   carrying a JSON-RPC batch of 8 eth_calls), in a loop;
 * - alps / blanc, 32 concurrent: the quoting service (createQuotingService over clients on that
 *   transport), 32 loops quoting in turn for 8 accounts.
 * Each variant has its own clients, reader and service, warmed up before round 1. Per round the
 * variants take turns (the order flips every round); the table gives medians over rounds, and
 * the ratio to keepAliveTransport is taken per round (ops/s), then its median.
 * "CPU µs/op" is this process's user+system CPU time per operation (the Anvils are not in it).
 */
import { loadavg } from 'node:os'
import { http, parseUnits } from 'viem'
import { tokensByChain } from '../../contracts/addresses'
import { nodeHttpFetch } from '../../lib/nodeHttpFetch'
import { startDevnet } from '../../simulator/devnet/startDevnet'
import { createPriceTable } from '../../simulator/prices/prices'
import {
  type BalanceTransport,
  balanceTransport,
  createBalanceClients,
} from '../../simulator/quoting/createBalanceClients'
import { type BalanceReader, createBalanceReader } from '../../simulator/quoting/createBalanceReader'
import {
  createQuotingService,
  type QuotingServiceInstance,
} from '../../simulator/quoting/createQuotingService'
import { createQuoteStore } from '../../simulator/quoting/quoteStore'
import { readBalances } from '../../simulator/quoting/readBalances'
import type { StoredQuotedIntent } from '../../simulator/quoting/types'
import type { RouteRequest } from '../../spec'

const argument = (name: string, fallback: number) => {
  const index = process.argv.indexOf(`--${name}`)
  return index >= 0 ? Number(process.argv[index + 1]) || fallback : fallback
}
const duration = argument('duration', 2) * 1000
const rounds = argument('rounds', 5)

const variants: { name: string; transport: BalanceTransport }[] = [
  // What createBalanceClients ships (keepAliveTransport with batch), exactly.
  { name: 'keepAliveTransport (node:http)', transport: balanceTransport },
  {
    // What the conformance runner used until issue 29's fifth session (without batch), counted in
    // the fetchFn: viem's onFetchRequest would build a WHATWG Request per call.
    name: 'viem http({ batch: true, fetchFn: nodeHttpFetch() })',
    transport: (rpcUrl, onRoundTrip) => {
      const fetchFn = nodeHttpFetch()
      return http(rpcUrl, {
        batch: true,
        retryCount: 0,
        fetchFn: ((input: string | URL | Request, init?: RequestInit) => {
          onRoundTrip?.()
          return fetchFn(input, init)
        }) as typeof fetchFn,
      })
    },
  },
  {
    name: 'viem http({ batch: true })',
    transport: (rpcUrl, onRoundTrip) =>
      http(rpcUrl, { batch: true, retryCount: 0, onFetchRequest: onRoundTrip }),
  },
  {
    name: 'viem http, fetchOptions.keepalive',
    transport: (rpcUrl, onRoundTrip) =>
      http(rpcUrl, {
        batch: true,
        retryCount: 0,
        onFetchRequest: onRoundTrip,
        fetchOptions: { keepalive: true },
      }),
  },
]

const devnet = await startDevnet({ chainIds: [1, 8453], accountCount: 8 })
const accounts = devnet.keys.accounts.map((a) => a.address)
const usdc = tokensByChain[8453]?.find((t) => t.symbol === 'USDC')?.address as `0x${string}`
const requestFor = (address: `0x${string}`): RouteRequest => ({
  destinationChainId: 8453,
  tokenRequests: [{ tokenAddress: usdc, amount: parseUnits('100', 6).toString() }],
  account: { address, accountType: 'EOA' },
})
const requests = accounts.map(requestFor)

type Setup = { name: string; balances: BalanceReader; quoting: QuotingServiceInstance }
const setups: Setup[] = variants.map(({ name, transport }) => {
  const balances = createBalanceReader({
    clients: createBalanceClients({ chains: devnet.chains, transport }),
  })
  const quoting = createQuotingService({
    balances,
    server: devnet.keys.server.account,
    clock: devnet,
    quotes: createQuoteStore<StoredQuotedIntent>({ clock: devnet, ttlSeconds: 300 }),
    prices: createPriceTable(),
  })
  return { name, balances, quoting }
})

type Workload = { name: string; run: (setup: Setup, until: number) => Promise<number> }
/** `loops` concurrent loops of `op` until the deadline; the number of ops done. */
async function loops(count: number, until: number, op: (i: number) => Promise<unknown>): Promise<number> {
  let done = 0
  let next = 0
  await Promise.all(
    Array.from({ length: count }, async () => {
      while (performance.now() < until) {
        await op(next++)
        done++
      }
    }),
  )
  return done
}
const workloads: Workload[] = [
  {
    name: 'reads, 1 account, sequential',
    run: (s, until) => loops(1, until, () => readBalances(s.balances.chains, accounts[0] as `0x${string}`)),
  },
  {
    name: 'reads, 8 accounts at once (coalesced)',
    run: (s, until) =>
      loops(1, until, () => Promise.all(accounts.map((a) => readBalances(s.balances.chains, a)))),
  },
  {
    name: 'alps quotes, 32 concurrent, 8 accounts',
    run: (s, until) =>
      loops(32, until, (i) => s.quoting.quoteBest(requests[i % requests.length] as RouteRequest)),
  },
  {
    name: 'blanc quotes, 32 concurrent, 8 accounts',
    run: (s, until) =>
      loops(32, until, (i) => s.quoting.quoteEvery(requests[i % requests.length] as RouteRequest)),
  },
]

type Sample = { opsPerSecond: number; cpuMicrosPerOp: number; tripsPerOp: number }
const samples = new Map<string, Sample[]>()
async function measure(setup: Setup, workload: Workload, ms: number): Promise<Sample> {
  const trips = setup.balances.rpc.count
  const cpu = process.cpuUsage()
  const start = performance.now()
  const ops = await workload.run(setup, start + ms)
  const elapsed = performance.now() - start
  const used = process.cpuUsage(cpu)
  return {
    opsPerSecond: (ops / elapsed) * 1000,
    cpuMicrosPerOp: (used.user + used.system) / ops,
    tripsPerOp: (setup.balances.rpc.count - trips) / ops,
  }
}

// Warm-up: every variant runs every workload untimed (JIT, sockets, caches).
for (const workload of workloads) for (const setup of setups) await measure(setup, workload, 1000)
const loads: number[] = []
for (let round = 0; round < rounds; round++) {
  const order = round % 2 === 0 ? setups : [...setups].reverse()
  for (const workload of workloads)
    for (const setup of order) {
      loads.push(loadavg()[0] ?? 0)
      await measure(setup, workload, 500)
      const sample = await measure(setup, workload, duration)
      const key = `${workload.name}|${setup.name}`
      samples.set(key, [...(samples.get(key) ?? []), sample])
      console.error(
        `round ${round + 1}: ${workload.name}, ${setup.name}: ${Math.round(sample.opsPerSecond)} ops/s, ${Math.round(sample.cpuMicrosPerOp)} µs CPU/op`,
      )
    }
}

const median = (values: number[]) => {
  const sorted = [...values].sort((x, y) => x - y)
  const mid = sorted.length >> 1
  return sorted.length % 2
    ? (sorted[mid] as number)
    : ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2
}
console.log(
  `Transport bench (${new Date().toISOString().slice(0, 10)}, Node ${process.version}, 2 Anvils, ${rounds} rounds of ${duration / 1000} s per row, medians; load average at row starts ${Math.min(...loads).toFixed(1)}–${Math.max(...loads).toFixed(1)})\n`,
)
console.log(
  '| workload | transport | ops/s | CPU µs/op (this process) | round trips/op | ÷ keepAlive ops/s, per round (median) |',
)
console.log('|---|---|---|---|---|---|')
const base = setups[0]?.name
for (const workload of workloads)
  for (const setup of setups) {
    const list = samples.get(`${workload.name}|${setup.name}`) ?? []
    const baseList = samples.get(`${workload.name}|${base}`) ?? []
    const ratios = list.map((s, i) => s.opsPerSecond / (baseList[i]?.opsPerSecond ?? Number.NaN))
    console.log(
      `| ${workload.name} | ${setup.name} | ${Math.round(median(list.map((s) => s.opsPerSecond)))} | ${Math.round(median(list.map((s) => s.cpuMicrosPerOp)))} | ${median(list.map((s) => s.tripsPerOp)).toFixed(2)} | ${setup.name === base ? '–' : `${ratios.map((r) => r.toFixed(2)).join(', ')} (${median(ratios).toFixed(2)})`} |`,
    )
  }
await devnet.stop()
