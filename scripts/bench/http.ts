/**
 * Throughput of the contract layer: requests per second of a bare Fastify route (no plugins),
 * of `GET /health` and of a `POST /intents/route` the contract rejects (fails validation),
 * measured in one run with the same load generator (autocannon), on loopback, with fixed
 * connections and duration. The servers run in a child process so the load generator does
 * not share their event loop.
 *
 * Usage: npm run bench:http [-- --connections 10 --duration 5 --rounds 3]
 */
import { spawn } from 'node:child_process'
import { loadavg } from 'node:os'
import { fileURLToPath } from 'node:url'
import autocannon from 'autocannon'
import Fastify from 'fastify'
import { withHttpFaults } from '../../simulator/faultInjection/http/httpFaults'
import { createFaults } from '../../simulator/faults/faults'
import { buildApp } from '../../simulator/http/app'
import { stubServices } from '../../simulator/http/testing/stubServices'

const API_KEY = 'bench-key'

/** Child: starts the bare app and the service on port 0 and prints their base URLs. */
async function serve(): Promise<void> {
  const bare = Fastify()
  bare.get('/bare', async () => ({ status: 'ok' }))
  // The same request shape as the rejected route (POST, JSON body parsed), answered 400 with no plugins.
  bare.post('/bare', async (_request, reply) => reply.code(400).send({ status: 'rejected' }))
  await bare.listen({ host: '127.0.0.1', port: 0 })
  // With the fault plugin on an empty registry, as the simulator runs.
  const app = await buildApp({ apiKeys: [API_KEY] }, stubServices(), {
    plugins: [withHttpFaults(createFaults())],
  })
  await app.listen({ host: '127.0.0.1', port: 0 })
  const url = (server: typeof bare.server) => {
    const address = server.address()
    return `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`
  }
  console.log(JSON.stringify({ bare: url(bare.server), service: url(app.server) }))
  process.on('SIGTERM', () => {
    Promise.all([bare.close(), app.close()]).then(() => process.exit(0))
  })
}

type Target = { name: string; options: autocannon.Options; expectStatus: number }

async function measure(target: Target, connections: number, duration: number, warmUp: boolean) {
  // A short warm-up first, so the JIT and connection setup do not count.
  if (warmUp) await autocannon({ ...target.options, connections, duration: 1 })
  const result = await autocannon({ ...target.options, connections, duration })
  const statusCounts = result.statusCodeStats ?? {}
  const unexpected = Object.entries(statusCounts)
    .filter(([status]) => Number(status) !== target.expectStatus)
    .reduce((sum, [, { count = 0 }]) => sum + count, 0)
  if (unexpected > 0 || result.errors > 0)
    throw new Error(
      `${target.name}: ${unexpected} responses not ${target.expectStatus}, ${result.errors} errors`,
    )
  return { name: target.name, rps: result.requests.average, p99: result.latency.p99 }
}

async function main(): Promise<void> {
  const args = process.argv.slice(2)
  const option = (name: string, fallback: number) => {
    const index = args.indexOf(`--${name}`)
    return index >= 0 ? Number(args[index + 1]) : fallback
  }
  const connections = option('connections', 10)
  const duration = option('duration', 5)
  const rounds = option('rounds', 3)

  const child = spawn(process.execPath, ['--import', 'tsx', fileURLToPath(import.meta.url), '--serve'], {
    stdio: ['ignore', 'pipe', 'inherit'],
  })
  const urls = await new Promise<{ bare: string; service: string }>((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`server process exited with ${code}`)))
    child.stdout.once('data', (chunk: Buffer) => resolve(JSON.parse(chunk.toString())))
  })
  try {
    const rejectedBody = JSON.stringify({
      destinationChainId: 8453,
      tokenRequests: [],
      account: { address: '0x12' },
    })
    const targets: Target[] = [
      { name: 'bare Fastify route (no plugins)', options: { url: `${urls.bare}/bare` }, expectStatus: 200 },
      {
        name: 'bare Fastify POST, same body parsed, 400 (no plugins; for reference)',
        options: {
          url: `${urls.bare}/bare`,
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: rejectedBody,
        },
        expectStatus: 400,
      },
      { name: 'GET /health', options: { url: `${urls.service}/health` }, expectStatus: 200 },
      {
        name: 'POST /intents/route, rejected (400)',
        options: {
          url: `${urls.service}/intents/route`,
          method: 'POST',
          headers: {
            'x-api-key': API_KEY,
            'x-api-version': '2026-01.alps',
            'content-type': 'application/json',
          },
          body: rejectedBody,
        },
        expectStatus: 400,
      },
    ]
    // The machine is shared: the targets take turns, round after round, and each figure is the
    // median over the rounds, so a burst of someone else's load hits every target alike.
    const runs: { rps: number; p99: number }[][] = targets.map(() => [])
    const loads: number[] = []
    for (let round = 0; round < rounds; round++) {
      loads.push(loadavg()[0] ?? 0)
      for (const [i, target] of targets.entries())
        runs[i]?.push(await measure(target, connections, duration, round === 0))
    }
    const median = (values: number[]) => {
      const sorted = [...values].sort((a, b) => a - b)
      const mid = Math.floor(sorted.length / 2)
      return sorted.length % 2
        ? (sorted[mid] as number)
        : ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2
    }
    const bareRuns = runs[0] ?? []
    const rows = targets.map((target, i) => {
      const mine = runs[i] ?? []
      return {
        name: target.name,
        rps: median(mine.map((r) => r.rps)),
        p99: median(mine.map((r) => r.p99)),
        // The ratio of each round (same minute of machine load), then the median of those.
        ratio: median(mine.map((r, round) => r.rps / (bareRuns[round]?.rps ?? Number.NaN))),
        perRound: mine.map((r) => Math.round(r.rps)).join(' / '),
      }
    })
    const rejected = rows.at(-1)
    const lines = [
      `Command: \`npm run bench:http -- --connections ${connections} --duration ${duration} --rounds ${rounds}\` (autocannon, loopback, ${connections} connections, ${duration} s per target per round, targets in turn, ${rounds} rounds, 1 s warm-up each in the first; Node ${process.version}, ${new Date().toISOString().slice(0, 10)}; load average at each round start: ${loads.map((l) => l.toFixed(1)).join(', ')})`,
      '',
      '| Target | req/s (median) | req/s per round | p99 ms (median) | ratio to bare GET (median of rounds) |',
      '|---|---|---|---|---|',
      ...rows.map(
        (r) => `| ${r.name} | ${Math.round(r.rps)} | ${r.perRound} | ${r.p99} | ${r.ratio.toFixed(2)} |`,
      ),
      '',
      `Goal: the rejected route keeps at least half of bare throughput (ratio ≥ 0.50): ${
        rejected && rejected.ratio >= 0.5 ? 'met' : 'NOT met'
      }; GET /health: ${(rows[2]?.ratio ?? 0) >= 0.5 ? 'met' : 'NOT met'}.`,
    ]
    console.log(lines.join('\n'))
  } finally {
    child.kill('SIGTERM')
  }
}

if (process.argv.includes('--serve')) await serve()
else await main()
