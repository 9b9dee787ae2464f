/**
 * A long recording session in a process of its own (run by recordLarge.test.ts under a small heap
 * limit): a plain HTTP server, the recording proxy in front of it, clients that create items
 * (small JSON) and read each back by the id the server made up (a text answer of ANSWER_BYTES,
 * starting with the id), then the scenario written. Prints one JSON line: what was recorded and
 * written, how long it took, the process's peak heap (with external memory: buffers) and RSS, and
 * how much more memory stayed referenced at the end of the recording than early in it (both after
 * a full collection; needs `--expose-gc`).
 *
 *   node --expose-gc --max-old-space-size=96 --import tsx test/record/longSession.ts OUT EXCHANGES ANSWER_BYTES
 */
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { getHeapStatistics } from 'node:v8'
import { startRecorder } from '../../conformance/record/startRecorder'
import { writeRecording } from '../../conformance/record/writeRecording'

const [out = 'long.yaml', count = '4000', answer = '8192'] = process.argv.slice(2)
const exchanges = Number(count)
const answerBytes = Number(answer)
const apiKey = 'long-session-key'
const gc = (globalThis as { gc?: () => void }).gc
if (!gc) throw new Error('run with --expose-gc')

// The V8 heap and the memory it accounts outside it (Buffers, the bytes the proxy relays): a
// recorder that kept the answers as Buffers would grow the second. Cheaper to sample than
// process.memoryUsage(), which reads the RSS.
const inUse = () => {
  const { used_heap_size, external_memory } = getHeapStatistics()
  return { heap: used_heap_size, all: used_heap_size + external_memory }
}
let peakHeap = 0
let peakMemory = 0
const sampler = setInterval(() => {
  const { heap, all } = inUse()
  peakHeap = Math.max(peakHeap, heap)
  peakMemory = Math.max(peakMemory, all)
}, 10)
/**
 * What is still referenced after full collections: the heap and the ArrayBuffers (Buffers) in
 * use. Two collections with a turn of the event loop between: the first one's finalizers (sockets'
 * and streams' buffers freed in callbacks) only let their memory go at the second. One collection
 * alone read up to 8.5 MB more on a loaded CI machine than on a quiet one (0.1-3.9 MB).
 */
const retained = async () => {
  gc()
  await new Promise((resolve) => setImmediate(resolve))
  gc()
  const { heapUsed, arrayBuffers } = process.memoryUsage()
  return heapUsed + arrayBuffers
}
/** The answer to a read: its id on the first line, then filler (no digits, so no number to parse). */
const content = (id: string) => {
  const text = Buffer.alloc(answerBytes, 'stored item content; ')
  text.write(`${id}\n`)
  return text
}

let next = 0
const plain = createServer((req, res) => {
  const chunks: Buffer[] = []
  req.on('data', (c: Buffer) => chunks.push(c))
  req.on('end', () => {
    if (req.method === 'POST' && req.url === '/items') {
      const { name } = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { name: string }
      const id = `item_${(next++).toString(16).padStart(12, '0')}${Math.random().toString(16).slice(2, 10)}`
      res.writeHead(201, { 'content-type': 'application/json' })
      res.end(JSON.stringify({ id, name, createdAt: new Date().toISOString() }))
    } else if (req.method === 'GET' && req.url?.startsWith('/items/')) {
      res.writeHead(200, { 'content-type': 'text/plain' })
      res.end(content(req.url.slice('/items/'.length)))
    } else {
      res.writeHead(404, { 'content-type': 'application/json' })
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
let answeredBytes = 0
// Taken once a tenth of the session is through (every code path of the proxy and the clients
// warm); recorder.recording() writes what the journal has pending first.
let early: number | undefined
await Promise.all(
  Array.from({ length: 16 }, async (_, client) => {
    while (sent < exchanges) {
      sent += 2
      if (early === undefined && sent >= exchanges / 10) {
        recorder.recording()
        early = await retained()
      }
      const created = await fetch(`${recorder.url}/items`, {
        method: 'POST',
        headers: { 'x-api-key': apiKey, 'content-type': 'application/json' },
        body: JSON.stringify({ name: `client ${client} item ${sent}` }),
      })
      const { id } = (await created.json()) as { id: string }
      const read = await fetch(`${recorder.url}/items/${id}`, { headers: { 'x-api-key': apiKey } })
      const body = Buffer.from(await read.arrayBuffer())
      if (created.status === 201 && read.status === 200 && body.equals(content(id)))
        answeredBytes += body.length
      else wrong++
    }
  }),
)
const recorded = performance.now()
recorder.recording()
const grown = (await retained()) - early!
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
    answeredMB: answeredBytes / 1e6,
    retainedGrowthMB: grown / 1e6,
    peakHeapMB: peakHeap / 1e6,
    peakMemoryMB: peakMemory / 1e6,
    maxRssMB: process.resourceUsage().maxRSS / 1024,
  }),
)
