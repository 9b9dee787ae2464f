/**
 * A long recording session in a process of its own (run by recordLarge.test.ts under a small heap
 * limit): a plain HTTP server, the recording proxy in front of it, clients that create items and
 * read each back by the id the server made up, then the scenario written. Prints one JSON line:
 * what was recorded and written, how long it took, and the process's peak RSS and heap.
 *
 *   node --import tsx --max-old-space-size=96 test/record/longSession.ts OUT EXCHANGES
 */
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { startRecorder } from '../../conformance/record/startRecorder'
import { writeRecording } from '../../conformance/record/writeRecording'

const [out = 'long.yaml', count = '20000'] = process.argv.slice(2)
const exchanges = Number(count)
const apiKey = 'long-session-key'
let peakHeap = 0
const sampler = setInterval(() => {
  peakHeap = Math.max(peakHeap, process.memoryUsage().heapUsed)
}, 10)

let next = 0
const plain = createServer((req, res) => {
  const chunks: Buffer[] = []
  req.on('data', (c: Buffer) => chunks.push(c))
  req.on('end', () => {
    res.setHeader('content-type', 'application/json')
    if (req.method === 'POST' && req.url === '/items') {
      const { name } = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { name: string }
      const id = `item_${(next++).toString(16).padStart(12, '0')}${Math.random().toString(16).slice(2, 10)}`
      res.writeHead(201)
      res.end(JSON.stringify({ id, name, createdAt: new Date().toISOString() }))
    } else if (req.method === 'GET' && req.url?.startsWith('/items/')) {
      res.writeHead(200)
      res.end(JSON.stringify({ id: req.url.slice('/items/'.length), status: 'stored' }))
    } else {
      res.writeHead(404)
      res.end('{"error":"not found"}')
    }
  })
})
await new Promise<void>((resolve) => plain.listen(0, '127.0.0.1', resolve))
const target = `http://127.0.0.1:${(plain.address() as AddressInfo).port}`
const recorder = await startRecorder({ target, apiKey, port: 0, journal: `${out}.journal` })
const started = performance.now()
let sent = 0
let wrong = 0
await Promise.all(
  Array.from({ length: 16 }, async (_, client) => {
    while (sent < exchanges) {
      sent += 2
      const created = await fetch(`${recorder.url}/items`, {
        method: 'POST',
        headers: { 'x-api-key': apiKey, 'content-type': 'application/json' },
        body: JSON.stringify({ name: `client ${client} item ${sent}` }),
      })
      const { id } = (await created.json()) as { id: string }
      const read = await fetch(`${recorder.url}/items/${id}`, { headers: { 'x-api-key': apiKey } })
      const answer = (await read.json()) as { id: string }
      if (created.status !== 201 || answer.id !== id) wrong++
    }
  }),
)
const recorded = performance.now()
const recording = await recorder.stop()
plain.close()
const written = await writeRecording(recording, out)
clearInterval(sampler)
console.log(
  JSON.stringify({
    sent,
    wrong,
    recorded: recording.counts.http,
    steps: written.steps,
    recordSeconds: (recorded - started) / 1000,
    writeSeconds: (performance.now() - recorded) / 1000,
    peakHeapMB: peakHeap / 1e6,
    maxRssMB: process.resourceUsage().maxRSS / 1024,
  }),
)
