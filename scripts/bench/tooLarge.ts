/**
 * Bench: does every client read its 413 (issue 31)? A stub service (default 1 MiB body limit) in
 * its own process; each client (Node http without and with keep-alive, fetch, curl, a raw
 * socket) uploads `--runs` bodies of each size, one after the other, and counts the 413s it
 * read (anything else: an EPIPE or reset before the answer, or no status). Also the median time
 * from the first byte sent to the answer read.
 *
 *   npx tsx scripts/bench/tooLarge.ts [--runs 20] [--sizes 2,6,20,50]
 */
import { spawn } from 'node:child_process'
import { once } from 'node:events'
import { loadavg } from 'node:os'
import { bigBody, uploadClients } from '../../simulator/http/testing/uploadClients'

const argument = (name: string, fallback: string) => {
  const index = process.argv.indexOf(`--${name}`)
  return index >= 0 ? (process.argv[index + 1] ?? fallback) : fallback
}
const runs = Number(argument('runs', '20'))
const sizes = argument('sizes', '2,6,20,50').split(',').map(Number)
const headers = {
  'x-api-key': 'devnet-key',
  'x-api-version': '2026-04.blanc',
  'content-type': 'application/json',
}

const server = spawn(process.execPath, ['--import', 'tsx', 'simulator/http/testing/serveStub.ts'], {
  stdio: ['ignore', 'pipe', 'inherit'],
})
const [line] = (await once(server.stdout, 'data')) as [Buffer]
const url = `${line.toString().trim()}/intents/route`
const clients = uploadClients()
const rows: string[] = []
for (const client of clients) {
  const cells: string[] = []
  for (const size of sizes) {
    const body = bigBody(size * 1024 * 1024)
    let read = 0
    const errors = new Map<string, number>()
    const times: number[] = []
    for (let i = 0; i < runs; i++) {
      const started = performance.now()
      const outcome = await client.upload(url, headers, body)
      times.push(performance.now() - started)
      if (outcome.status === 413) read++
      else {
        const key = outcome.error ?? `status ${outcome.status}`
        errors.set(key, (errors.get(key) ?? 0) + 1)
      }
    }
    times.sort((a, b) => a - b)
    const median = times[Math.floor(times.length / 2)] ?? 0
    const failures = [...errors].map(([error, count]) => `${count} ${error}`).join(', ')
    cells.push(`${read}/${runs}${failures ? ` (${failures})` : ''}, ${median.toFixed(0)} ms`)
  }
  client.close?.()
  rows.push(`| ${client.name} | ${cells.join(' | ')} |`)
}
server.kill('SIGTERM')

console.log(`\n413 read per client (Node ${process.version}, load average ${loadavg()[0]?.toFixed(1)})\n`)
console.log(`| Client | ${sizes.map((s) => `${s} MB`).join(' | ')} |`)
console.log(`|---|${sizes.map(() => '---').join('|')}|`)
for (const row of rows) console.log(row)
