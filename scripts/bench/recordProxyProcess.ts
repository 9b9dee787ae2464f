/**
 * The recording proxy in a process of its own, for scripts/bench/recordProxy.ts to measure its
 * CPU alone: `npx tsx scripts/bench/recordProxyProcess.ts TARGET API_KEY` prints `url <proxy URL>`,
 * then answers each line `cpu` on stdin with `cpu <µs of CPU this process used>`, and stops (the
 * journal removed) when stdin ends.
 */
import { rm } from 'node:fs/promises'
import { dirname } from 'node:path'
import { createInterface } from 'node:readline'
import { startRecorder } from '../../conformance/record/startRecorder'

const [target = '', apiKey = ''] = process.argv.slice(2)
const recorder = await startRecorder({ target, apiKey, port: 0 })
console.log(`url ${recorder.url}`)
const lines = createInterface({ input: process.stdin })
lines.on('line', (line) => {
  if (line.trim() !== 'cpu') return
  const { user, system } = process.cpuUsage()
  console.log(`cpu ${user + system} ${recorder.recording().counts.http}`)
})
lines.on('close', async () => {
  const recording = await recorder.stop()
  await rm(dirname(recording.journal), { recursive: true, force: true })
  process.exit(0)
})
