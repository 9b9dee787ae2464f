/**
 * The image beside `npm start`, same run, same machine, same (default) four chains:
 *
 * - `npm start -- --port P` from spawn to `GET /health` 200 (the baseline);
 * - `docker run --rm --network host intent-devnet:<version> up --port P` from spawn to
 *   `GET /health` 200;
 * each `--runs` times (default 5), alternating, median reported with the ratio; then SIGTERM to
 * exit for the container, and the image's size. Builds the image first when it is not current.
 *
 * @example
 * npm run bench:image -- --runs 5
 */
import { type ChildProcess, execFileSync, spawn } from 'node:child_process'
import { createServer } from 'node:net'
import { join } from 'node:path'
import { buildImage } from '../image/buildImage'

const runsArg = process.argv.indexOf('--runs')
const runs = runsArg > 0 ? Number(process.argv[runsArg + 1]) : 5
const root = join(import.meta.dirname, '..', '..')

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b)
  const mid = Math.floor(sorted.length / 2)
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2
}

const freePort = () =>
  new Promise<number>((resolve) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number }
      server.close(() => resolve(port))
    })
  })

async function untilHealthy(port: number, child: ChildProcess): Promise<void> {
  let exited = false
  child.once('exit', () => {
    exited = true
  })
  for (;;) {
    if (exited) throw new Error('exited before /health answered')
    const ok = await fetch(`http://127.0.0.1:${port}/health`).then(
      (response) => response.status === 200,
      () => false,
    )
    if (ok) return
    await new Promise((resolve) => setTimeout(resolve, 25))
  }
}

const exitOf = (child: ChildProcess) => new Promise((resolve) => child.once('exit', resolve))

/** `npm start` to ready; stopped like Ctrl-C stops it (SIGTERM to its process group). */
async function npmStart(): Promise<number> {
  const port = await freePort()
  const started = performance.now()
  const child = spawn('npm', ['start', '--', '--port', String(port)], {
    cwd: root,
    stdio: 'ignore',
    detached: true,
  })
  await untilHealthy(port, child)
  const ms = performance.now() - started
  const exited = exitOf(child)
  process.kill(-child.pid!, 'SIGTERM')
  await exited
  return ms
}

/** `docker run` to ready, then SIGTERM to the container's exit (measured from the engine's side). */
async function dockerRun(tag: string): Promise<{ ready: number; stop: number }> {
  const port = await freePort()
  const name = `bench-image-${process.pid}-${port}`
  const started = performance.now()
  const child = spawn(
    'docker',
    ['run', '--rm', '--name', name, '--network', 'host', tag, 'up', '--port', String(port)],
    {
      stdio: 'ignore',
    },
  )
  await untilHealthy(port, child)
  const ready = performance.now() - started
  const exited = exitOf(child)
  const stopping = performance.now()
  execFileSync('docker', ['kill', '--signal', 'TERM', name], { stdio: 'ignore' })
  await exited
  return { ready, stop: performance.now() - stopping }
}

const { tag, size, built } = await buildImage({ log: (line) => console.error(line) })
console.log(`image ${tag}: ${(size / 1e6).toFixed(1)} MB${built ? ' (built for this run)' : ''}`)

// One warm-up of each: the page cache holds the Node binary, the bundle and Anvil afterwards.
await npmStart()
await dockerRun(tag)

const baseline: number[] = []
const image: number[] = []
const stops: number[] = []
for (let i = 0; i < runs; i++) {
  baseline.push(await npmStart())
  const run = await dockerRun(tag)
  image.push(run.ready)
  stops.push(run.stop)
}
const fmt = (ms: number) => `${(ms / 1000).toFixed(2)} s`
console.log(`npm start → /health 200:  median ${fmt(median(baseline))}  (${baseline.map(fmt).join(', ')})`)
console.log(`docker run → /health 200: median ${fmt(median(image))}  (${image.map(fmt).join(', ')})`)
console.log(`ratio docker run / npm start: ${(median(image) / median(baseline)).toFixed(2)}x (goal < 1.5x)`)
console.log(`SIGTERM → container gone (docker kill → docker run exits): median ${fmt(median(stops))}`)
