/**
 * Bench: CPU time of the service per quote (`POST /intents/route`, alps and blanc), through the
 * public `startSimulator` only, so the same script runs in a tree before and after a change
 * (scripts/bench/beforeAfter.sh). On a shared machine the wall-clock rate of a quote follows the
 * other processes' load (3–7x between rounds of the same code); the CPU this process spends per
 * quote (`process.cpuUsage`, user + system: the service and its in-process client, whose work is
 * the same on both sides) moves far less, as it does not count the time the process waits for a
 * core. The Anvils are other processes and are not counted.
 *
 *   npx tsx scripts/bench/quoteCpu.ts [--requests 400] [--concurrency 8]
 *   scripts/bench/beforeAfter.sh /tmp/before . 3 -- scripts/bench/quoteCpu.ts
 */
import { loadavg } from 'node:os'
import { startSimulator } from '../../simulator/index'

const argument = (name: string, fallback: number) => {
  const index = process.argv.indexOf(`--${name}`)
  return index >= 0 ? Number(process.argv[index + 1]) || fallback : fallback
}
const requests = argument('requests', 400)
const concurrency = argument('concurrency', 8)
const USDC_BASE = '0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913'

const sim = await startSimulator({ port: 0, chainIds: [1, 10, 8453, 42161] })
try {
  const account = sim.devnet.keys.accounts[0]?.address
  if (!account) throw new Error('the devnet has no funded account')
  const body = JSON.stringify({
    destinationChainId: 8453,
    tokenRequests: [{ tokenAddress: USDC_BASE, amount: '100000000' }],
    account: { address: account, accountType: 'EOA' },
  })
  const send = async (version: string) => {
    const response = await fetch(`${sim.baseUrl}/intents/route`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-api-key': sim.apiKey, 'x-api-version': version },
      body,
    })
    await response.arrayBuffer()
    if (response.status !== 200) throw new Error(`${version}: status ${response.status}`)
  }
  const run = async (version: string, count: number) => {
    let next = 0
    await Promise.all(
      Array.from({ length: concurrency }, async () => {
        while (next++ < count) await send(version)
      }),
    )
  }
  for (const version of ['2026-01.alps', '2026-04.blanc']) {
    await run(version, 100) // warm: JIT, caches, connections
    const cpu = process.cpuUsage()
    const started = performance.now()
    await run(version, requests)
    const used = process.cpuUsage(cpu)
    const wall = performance.now() - started
    console.log(
      `${version}: ${((used.user + used.system) / requests).toFixed(0)} µs CPU per quote (user ${(used.user / requests).toFixed(0)}, system ${(used.system / requests).toFixed(0)}), ${((requests / wall) * 1000).toFixed(0)} quotes/s wall, ${requests} quotes, concurrency ${concurrency}`,
    )
  }
  console.log(
    `load average ${loadavg()
      .map((value) => value.toFixed(1))
      .join(' ')}`,
  )
} finally {
  await sim.close()
}
