/**
 * Bench: POST /intents/route (alps and blanc) under load on loopback, beside a bare Fastify route
 * and a bare Multicall3 balance read (one eth_call) to one Anvil, in the same run; and the RPC
 * round trips per quote.
 *
 *   npx tsx scripts/bench/quoting.ts [--duration 5]
 */
import { loadavg } from 'node:os'
import autocannon from 'autocannon'
import Fastify from 'fastify'
import { encodeFunctionData, erc20Abi, parseUnits } from 'viem'
import { addresses, tokensByChain } from '../../contracts/addresses'
import * as artifacts from '../../contracts/generated/artifacts'
import { startDevnet } from '../../simulator/devnet/startDevnet'
import { buildApp } from '../../simulator/http/app'
import { createQuotingService } from '../../simulator/quoting/quotingService'

const duration = Number(process.argv[process.argv.indexOf('--duration') + 1] || 5) || 5
const devnet = await startDevnet({ chainIds: [1, 8453], accountCount: 2 })
const quoting = createQuotingService({
  chains: devnet.chains,
  server: devnet.keys.server.account,
  clock: devnet,
})
// Quotes the service answered (counted around the service, so quotes still in flight when a run stops count too).
let quotesAnswered = 0
const counted = <T>(promise: Promise<T>) => promise.finally(() => quotesAnswered++)
const app = await buildApp(
  { apiKeys: ['bench'] },
  {
    clock: devnet,
    quoting: {
      ...quoting,
      routeAlps: (request) => counted(quoting.routeAlps(request)),
      routeBlanc: (request) => counted(quoting.routeBlanc(request)),
    },
  },
)
const base = await app.listen({ port: 0, host: '127.0.0.1' })
const bare = Fastify()
bare.post('/bare', async () => ({ ok: true }))
const bareUrl = await bare.listen({ port: 0, host: '127.0.0.1' })

const account = devnet.keys.accounts[0]?.address as `0x${string}`
const usdc = tokensByChain[8453]?.find((t) => t.symbol === 'USDC')?.address as `0x${string}`
const body = JSON.stringify({
  destinationChainId: 8453,
  tokenRequests: [{ tokenAddress: usdc, amount: parseUnits('100', 6).toString() }],
  account: { address: account, accountType: 'EOA' },
})
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

await quoting.routeAlps(JSON.parse(body))
const alpsTrips = quoting.lastQuoteRpcRoundTrips()
await quoting.routeBlanc(JSON.parse(body))
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
]
const rows: string[] = []
const wire: string[] = []
const loads: number[] = []
for (const target of targets)
  for (const connections of [1, 32]) {
    loads.push(loadavg()[0] ?? 0)
    const tripsBefore = quoting.rpcRoundTrips()
    const quotesBefore = quotesAnswered
    const result = await autocannon({
      url: target.url,
      method: 'POST',
      headers: target.headers,
      body: target.body,
      connections,
      duration,
    })
    const errors = result.errors + result.non2xx
    rows.push(
      `| ${target.name} | ${connections} | ${Math.round(result.requests.average)} | ${result.latency.p50} | ${result.latency.p99} | ${errors} |`,
    )
    // Every JSON-RPC request the quoting clients sent for the run's quotes, over those quotes
    // (after the quotes still in flight when autocannon stopped are done).
    await new Promise((resolve) => setTimeout(resolve, 500))
    if (target.name.startsWith('POST /intents/route'))
      wire.push(
        `${target.name.slice(20)} ${connections}: ${((quoting.rpcRoundTrips() - tripsBefore) / (quotesAnswered - quotesBefore)).toFixed(2)}`,
      )
    console.error(rows.at(-1))
  }
console.log(
  `Quoting bench (${new Date().toISOString().slice(0, 10)}, 2 chains, ${duration} s per row, loopback, shared 2-core box; load average at each row start: ${loads.map((l) => l.toFixed(1)).join(', ')})\n`,
)
console.log('| target | connections | req/s | p50 ms | p99 ms | errors |')
console.log('|---|---|---|---|---|---|')
for (const row of rows) console.log(row)
console.log(
  `\nRPC round trips per quote: alps ${alpsTrips}, blanc ${blancTrips} (2 chains: one Multicall3 eth_call per chain).`,
)
console.log(`Round trips on the wire per answered quote, whole runs (connections): ${wire.join('; ')}.`)
await app.close()
await bare.close()
await devnet.stop()
