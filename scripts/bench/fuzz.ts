/**
 * Speed of `intent-devnet fuzz`'s stateless phase: generated requests per second against the
 * simulator, beside the bare route's rate (a Fastify route with no plugins answering the same
 * kind of JSON POST) and the simulator's own rejected route, both under autocannon, measured in
 * the same run, round after round. The simulator and the bare route run in a child process, so
 * the fuzzer (or autocannon) and the target each have a core; each round also fuzzes a
 * simulator started in the fuzzer's own process (`runFuzz` without a target: one event loop
 * for both), as `intent-devnet fuzz` without --target did before it started a child.
 *
 * Usage: npm run bench:fuzz [-- --requests 3000 --duration 5 --rounds 3]
 */
import { spawn } from 'node:child_process'
import { mkdtemp } from 'node:fs/promises'
import { loadavg, tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import autocannon from 'autocannon'
import Fastify from 'fastify'
import { runFuzz } from '../../conformance/fuzz/runFuzz'
import { startLocalTarget } from '../../conformance/runner/startLocalTarget'

/** Child: the simulator and the bare route on port 0; prints their URLs and the key. */
async function serve(): Promise<void> {
  const bare = Fastify()
  bare.post('/bare', async (_request, reply) => reply.code(400).send({ status: 'rejected' }))
  await bare.listen({ host: '127.0.0.1', port: 0 })
  const address = bare.server.address()
  const local = await startLocalTarget()
  const port = typeof address === 'object' && address ? address.port : 0
  console.log(
    JSON.stringify({ bare: `http://127.0.0.1:${port}`, target: local.target, apiKey: local.apiKey }),
  )
  process.on('SIGTERM', () => {
    Promise.all([bare.close(), local.stop()]).then(() => process.exit(0))
  })
}

async function cannon(url: string, apiKey: string, duration: number): Promise<number> {
  const options: autocannon.Options = {
    url,
    method: 'POST',
    connections: 16,
    duration,
    headers: { 'content-type': 'application/json', 'x-api-key': apiKey, 'x-api-version': '2026-04.blanc' },
    body: JSON.stringify({ destinationChainId: 'base', tokenRequests: 'USDC', account: {} }),
  }
  await autocannon({ ...options, duration: 1 })
  const result = await autocannon(options)
  return result.requests.average
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!

async function main(): Promise<void> {
  const args = process.argv.slice(2)
  const option = (name: string, fallback: number) => {
    const index = args.indexOf(`--${name}`)
    return index >= 0 ? Number(args[index + 1]) : fallback
  }
  const requests = option('requests', 3000)
  const duration = option('duration', 5)
  const rounds = option('rounds', 3)
  const child = spawn(process.execPath, ['--import', 'tsx', fileURLToPath(import.meta.url), '--serve'], {
    stdio: ['ignore', 'pipe', 'ignore'],
  })
  const urls = await new Promise<{ bare: string; target: string; apiKey: string }>((resolve, reject) => {
    let out = ''
    child.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString()
      const line = out.split('\n').find((l) => l.startsWith('{"bare"'))
      if (line) resolve(JSON.parse(line))
    })
    child.on('exit', (code) => reject(new Error(`the server child exited (${code})`)))
  })
  const rows: { bare: number; rejected: number; fuzz: number; inProcess: number }[] = []
  try {
    for (let round = 1; round <= rounds; round++) {
      const bare = await cannon(`${urls.bare}/bare`, urls.apiKey, duration)
      const rejected = await cannon(`${urls.target}/intents/route`, urls.apiKey, duration)
      const out = await mkdtemp(join(tmpdir(), 'bench-fuzz-'))
      const run = await runFuzz({
        target: urls.target,
        apiKey: urls.apiKey,
        seed: round,
        budget: requests,
        phases: ['stateless'],
        out,
      })
      const fuzz = run.report.requests.statelessPerSecond
      const own = await runFuzz({
        seed: round,
        budget: requests,
        phases: ['stateless'],
        localTarget: 'in-process',
        out: await mkdtemp(join(tmpdir(), 'bench-fuzz-')),
      })
      const inProcess = own.report.requests.statelessPerSecond
      rows.push({ bare, rejected, fuzz, inProcess })
      console.log(
        `round ${round}: bare route ${Math.round(bare)}/s, rejected POST /intents/route ${Math.round(rejected)}/s (autocannon, 16 connections); fuzz stateless ${fuzz}/s against the simulator in a child process (${run.report.requests.stateless} generated requests, ${run.findings.length} findings), ${inProcess}/s against one in its own process (${own.findings.length} findings); load ${loadavg()[0]!.toFixed(1)}`,
      )
    }
  } finally {
    child.kill('SIGTERM')
  }
  const bare = median(rows.map((r) => r.bare))
  const rejected = median(rows.map((r) => r.rejected))
  const fuzz = median(rows.map((r) => r.fuzz))
  const inProcess = median(rows.map((r) => r.inProcess))
  console.log(
    `median of ${rounds}: fuzz ${fuzz}/s (simulator in a child process), ${inProcess}/s (in the fuzzer's process); bare route ${Math.round(bare)}/s (fuzz = ${(fuzz / bare).toFixed(2)}x); rejected route ${Math.round(rejected)}/s (fuzz = ${(fuzz / rejected).toFixed(2)}x); load average ${loadavg()[0]!.toFixed(1)}`,
  )
}

if (process.argv.includes('--serve')) await serve()
else await main()
