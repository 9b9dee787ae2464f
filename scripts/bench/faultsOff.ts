/**
 * The cost of the HTTP fault plugin with every fault off, as CPU time per request, beside the
 * tree before it (issue 27): two apps in one process, this tree's (the plugin on an empty
 * registry, as the simulator runs) and BEFORE_DIR's (its own fault wiring, empty registry), each
 * answering the same requests through `inject` (no sockets), in alternating batches, so a burst of
 * someone else's load falls on both alike. CPU time (process.cpuUsage) is far less load-sensitive
 * than req/s on a shared machine.
 *
 *   npx tsx scripts/bench/faultsOff.ts --before /tmp/before [--batch 2000] [--rounds 10]
 *
 * Requests: `POST /intents/route` with a valid body (auth, versioning, validation, the plugin's
 * preHandler, the handler; the stub quoting answers 422 through the error handler, the envelope
 * and the plugin's preSerialization), the same with an invalid body (400: the validator's policy
 * and the envelope), and `GET /health`.
 */
import { loadavg } from 'node:os'
import { join } from 'node:path'
import type { FastifyInstance, InjectOptions } from 'fastify'
import { withHttpFaults } from '../../simulator/faultInjection/http/httpFaults'
import { createFaults } from '../../simulator/faults/faults'
import { buildApp } from '../../simulator/http/app'
import { routeRequest } from '../../simulator/http/testing/fixtures'
import { stubServices } from '../../simulator/http/testing/stubServices'

const argument = (name: string, fallback?: string) => {
  const index = process.argv.indexOf(`--${name}`)
  return index >= 0 ? process.argv[index + 1] : fallback
}
const beforeDir = argument('before')
if (!beforeDir) throw new Error('Usage: npx tsx scripts/bench/faultsOff.ts --before BEFORE_DIR')
const batch = Number(argument('batch', '2000'))
const rounds = Number(argument('rounds', '10'))
const KEY = 'bench-key'

const after = await buildApp({ apiKeys: [KEY] }, stubServices(), {
  plugins: [withHttpFaults(createFaults())],
})
// The tree before: its buildApp took the registry itself (`{ faults }`).
const old = {
  app: (await import(join(beforeDir, 'simulator/http/app.ts'))) as {
    buildApp: (config: object, services: object, options: object) => Promise<FastifyInstance>
  },
  stubs: (await import(join(beforeDir, 'simulator/http/testing/stubServices.ts'))) as {
    stubServices: () => object
  },
  faults: (await import(join(beforeDir, 'simulator/faults/faults.ts'))) as { createFaults: () => object },
}
const before = await old.app.buildApp({ apiKeys: [KEY] }, old.stubs.stubServices(), {
  faults: old.faults.createFaults(),
})
await Promise.all([after.ready(), before.ready()])

const headers = { 'x-api-key': KEY, 'x-api-version': '2026-01.alps' }
const requests: { name: string; options: InjectOptions; status: number }[] = [
  {
    name: 'POST /intents/route, valid body (stub quoting: 422)',
    options: { method: 'POST', url: '/intents/route', headers, payload: routeRequest() },
    status: 422,
  },
  {
    name: 'POST /intents/route, invalid body (400)',
    options: { method: 'POST', url: '/intents/route', headers, payload: { tokenRequests: [] } },
    status: 400,
  },
  { name: 'GET /health', options: { method: 'GET', url: '/health' }, status: 200 },
]

/** CPU microseconds per request over one batch. */
async function cpuPerRequest(app: FastifyInstance, options: InjectOptions, status: number): Promise<number> {
  const start = process.cpuUsage()
  for (let i = 0; i < batch; i++) {
    const response = await app.inject(options)
    if (response.statusCode !== status)
      throw new Error(`${options.method} ${options.url}: ${response.statusCode}, expected ${status}`)
  }
  const used = process.cpuUsage(start)
  return (used.user + used.system) / batch
}

const median = (values: number[]) => {
  const sorted = [...values].sort((x, y) => x - y)
  const mid = sorted.length >> 1
  return sorted.length % 2
    ? (sorted[mid] as number)
    : ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2
}

const loads: number[] = []
console.log(
  `HTTP faults off, CPU µs per request (inject, batches of ${batch}, ${rounds} rounds alternating before/after; Node ${process.version}, ${new Date().toISOString().slice(0, 10)})\n`,
)
console.log(
  '| request | before µs (median) | after µs (median) | after ÷ before (median of rounds) | per round (after ÷ before) |',
)
console.log('|---|---|---|---|---|')
for (const { name, options, status } of requests) {
  // Warm-up: JIT, schemas, caches.
  await cpuPerRequest(before, options, status)
  await cpuPerRequest(after, options, status)
  const b: number[] = []
  const a: number[] = []
  for (let round = 0; round < rounds; round++) {
    loads.push(loadavg()[0] ?? 0)
    // Which side goes first alternates too.
    if (round % 2 === 0) {
      b.push(await cpuPerRequest(before, options, status))
      a.push(await cpuPerRequest(after, options, status))
    } else {
      a.push(await cpuPerRequest(after, options, status))
      b.push(await cpuPerRequest(before, options, status))
    }
  }
  const ratios = a.map((value, i) => value / (b[i] as number))
  console.log(
    `| ${name} | ${median(b).toFixed(1)} | ${median(a).toFixed(1)} | ${median(ratios).toFixed(3)} | ${ratios.map((r) => r.toFixed(2)).join(' ')} |`,
  )
}
console.log(
  `\nLoad average at round starts: ${Math.min(...loads).toFixed(1)}–${Math.max(...loads).toFixed(1)}.`,
)
await Promise.all([after.close(), before.close()])
