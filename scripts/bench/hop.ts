/**
 * Bench: the HTTP hop of keepAliveTransport to an Anvil in a FRESH process (as the simulator
 * child of a conformance run, whose code never warms up the way a long-lived server's does):
 * node:http (lib/localHttpPost.ts) against the lean loopback client (lib/loopbackHttp.ts).
 * Starts one Anvil, then per round one fresh process per variant (the order flips every round),
 * each making `--trips` round trips (every third one a batch of three requests, as the devnet's
 * turns gather them) after one untimed; prints each process's client CPU per round trip.
 *
 *   npx tsx scripts/bench/hop.ts [--rounds 4] [--trips 400]
 */
import { execFile } from 'node:child_process'
import { loadavg } from 'node:os'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'
import { createPublicClient, defineChain } from 'viem'
import { keepAliveTransport } from '../../lib/keepAliveTransport'
import { localHttpPost } from '../../lib/localHttpPost'
import { loopbackPost } from '../../lib/loopbackHttp'
import { startAnvil } from '../../simulator/devnet/anvil'

const argument = (name: string, fallback: number) => {
  const index = process.argv.indexOf(`--${name}`)
  return index >= 0 ? Number(process.argv[index + 1]) || fallback : fallback
}

/** In the child: the round trips, and this process's CPU per round trip on stdout. */
async function measure(rpcUrl: string, variant: string, trips: number): Promise<void> {
  const chain = defineChain({
    id: 31337,
    name: 'bench',
    nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 },
    rpcUrls: { default: { http: [rpcUrl] } },
  })
  const hop = variant === 'lean' ? loopbackPost : localHttpPost
  const client = createPublicClient({
    chain,
    transport: keepAliveTransport(rpcUrl, { batch: { maxSize: 2_000 }, hop }),
  })
  await client.getBlockNumber({ cacheTime: 0 })
  const before = process.cpuUsage()
  for (let i = 0; i < trips; i++)
    if (i % 3 === 0)
      await Promise.all([
        client.getBlockNumber({ cacheTime: 0 }),
        client.getChainId(),
        client.getBalance({ address: '0x0000000000000000000000000000000000000001' }),
      ])
    else await client.getBlockNumber({ cacheTime: 0 })
  const cpu = process.cpuUsage(before)
  console.log(((cpu.user + cpu.system) / trips).toFixed(0))
}

if (process.argv[2] === '--child') {
  await measure(process.argv[3]!, process.argv[4]!, Number(process.argv[5]))
  process.exit(0)
}
const rounds = argument('rounds', 4)
const trips = argument('trips', 400)
const anvil = await startAnvil({ chainId: 31337 })
const results: Record<string, number[]> = { node: [], lean: [] }
try {
  for (let round = 0; round < rounds; round++)
    for (const variant of round % 2 ? ['lean', 'node'] : ['node', 'lean']) {
      // Asynchronously: this process keeps reading the Anvil's output meanwhile.
      const { stdout } = await promisify(execFile)(process.execPath, [
        ...process.execArgv,
        fileURLToPath(import.meta.url),
        '--child',
        anvil.rpcUrl,
        variant,
        String(trips),
      ])
      results[variant]!.push(Number(stdout.trim()))
    }
} finally {
  await anvil.stop()
}
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!
for (const [variant, xs] of Object.entries(results))
  console.log(
    `${variant === 'lean' ? 'loopbackPost' : 'localHttpPost'}: µs of CPU per round trip ${xs.join(', ')} (median ${median(xs)})`,
  )
console.log(
  `load ${loadavg()
    .map((l) => l.toFixed(2))
    .join(' ')}`,
)
