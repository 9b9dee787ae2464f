/**
 * Throughput of the contract layer: requests per second of a bare Fastify route (no plugins),
 * of `GET /health` and of a `POST /intents/route` the contract rejects (fails validation),
 * measured in one run with the same load generator (autocannon), on loopback, with fixed
 * connections and duration. The servers run in a child process so the load generator does
 * not share their event loop.
 *
 * Usage: npm run bench:http [-- --connections 10 --duration 5]
 */
import { spawn } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import autocannon from 'autocannon'
import Fastify from 'fastify'
import { buildApp } from '../../simulator/http/app'
import { createSystemClock } from '../../simulator/services'

const API_KEY = 'bench-key'

/** Child: starts the bare app and the service on port 0 and prints their base URLs. */
async function serve(): Promise<void> {
  const bare = Fastify()
  bare.get('/bare', async () => ({ status: 'ok' }))
  await bare.listen({ host: '127.0.0.1', port: 0 })
  const app = await buildApp({ apiKeys: [API_KEY] }, { clock: createSystemClock() })
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

async function measure(target: Target, connections: number, duration: number) {
  // A short warm-up first, so the JIT and connection setup do not count.
  await autocannon({ ...target.options, connections, duration: 1 })
  const result = await autocannon({ ...target.options, connections, duration })
  const statusCounts = result.statusCodeStats as unknown as Record<string, { count: number }>
  const unexpected = Object.entries(statusCounts)
    .filter(([status]) => Number(status) !== target.expectStatus)
    .reduce((sum, [, { count }]) => sum + count, 0)
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

  const child = spawn(process.execPath, ['--import', 'tsx', fileURLToPath(import.meta.url), '--serve'], {
    stdio: ['ignore', 'pipe', 'inherit'],
  })
  const urls = await new Promise<{ bare: string; service: string }>((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`server process exited with ${code}`)))
    child.stdout.once('data', (chunk: Buffer) => resolve(JSON.parse(chunk.toString())))
  })
  try {
    const targets: Target[] = [
      { name: 'bare Fastify route (no plugins)', options: { url: `${urls.bare}/bare` }, expectStatus: 200 },
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
          body: JSON.stringify({ destinationChainId: 8453, tokenRequests: [], account: { address: '0x12' } }),
        },
        expectStatus: 400,
      },
    ]
    const results = []
    for (const target of targets) results.push(await measure(target, connections, duration))
    const bare = results[0]!.rps
    const lines = [
      `Command: \`npm run bench:http -- --connections ${connections} --duration ${duration}\` (autocannon, loopback, ${connections} connections, ${duration} s each after a 1 s warm-up; Node ${process.version}, ${new Date().toISOString().slice(0, 10)})`,
      '',
      '| Target | req/s | p99 latency (ms) | ratio to bare |',
      '|---|---|---|---|',
      ...results.map((r) => `| ${r.name} | ${Math.round(r.rps)} | ${r.p99} | ${(r.rps / bare).toFixed(2)} |`),
      '',
      `Goal: the contract layer costs less than half of bare throughput (ratio ≥ 0.50): ${
        results.slice(1).every((r) => r.rps / bare >= 0.5) ? 'met' : 'NOT met'
      }.`,
    ]
    console.log(lines.join('\n'))
  } finally {
    child.kill('SIGTERM')
  }
}

if (process.argv.includes('--serve')) await serve()
else await main()
