/**
 * The installed package (issue 26): `npm pack` once (the tarball's size), `npm install` of the
 * tarball into an empty project (wall time, npm's cache warm: `--prefer-offline`), then
 * `npx intent-devnet up --port <free>` from that install to the first `/health` 200, beside four
 * bare Anvils (chains 1, 10, 8453, 42161) spawned in parallel until each listens, alternating,
 * median of `--runs` (default 5) each. The target: the start within 5x the bare Anvils.
 *
 * @example
 * npx tsx scripts/bench/packageStart.ts --runs 5
 */
import { execFile, spawn } from 'node:child_process'
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs'
import { createServer } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { anvilBinaryPath } from '../../simulator/devnet/anvilProcess.js'

const root = join(import.meta.dirname, '../..')
const runs = Number(process.argv[process.argv.indexOf('--runs') + 1]) || 5
const sh = (command: string, args: string[], cwd: string) =>
  new Promise<string>((resolve, reject) =>
    execFile(command, args, { cwd, maxBuffer: 64 << 20 }, (error, stdout, stderr) =>
      error ? reject(new Error(`${error.message}\n${stderr}`)) : resolve(stdout),
    ),
  )
const freePort = () =>
  new Promise<number>((resolve) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number }
      server.close(() => resolve(port))
    })
  })
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!

/** Four bare Anvils in parallel, until each prints that it listens; ms. */
async function bareAnvils(): Promise<number> {
  const started = performance.now()
  const children = [1, 10, 8453, 42161].map((chainId) =>
    spawn(anvilBinaryPath(), ['--port', '0', '--chain-id', String(chainId)], {
      stdio: ['ignore', 'pipe', 'pipe'],
    }),
  )
  await Promise.all(
    children.map(
      (child) =>
        new Promise<void>((resolve) => {
          let out = ''
          child.stdout.on('data', (chunk) => {
            out += chunk
            if (/Listening on/.test(out)) resolve()
          })
        }),
    ),
  )
  const ms = performance.now() - started
  await Promise.all(
    children.map((child) => new Promise((resolve) => (child.once('exit', resolve), child.kill('SIGTERM')))),
  )
  return ms
}

/**
 * npx's own floor: `npx noop` of a bin that does nothing, installed beside intent-devnet (npx
 * starts npm's CLI, reads the project's package and lockfile and finds the bin before it runs
 * it); ms to its exit.
 */
async function npxNoop(project: string): Promise<number> {
  const started = performance.now()
  await sh('npx', ['noop'], project)
  return performance.now() - started
}

/**
 * `up` from the install to the first /health 200, through `npx intent-devnet` or, without npx,
 * `node node_modules/.bin/intent-devnet` (the part that is ours); ms.
 */
async function upFromInstall(project: string, via: 'npx' | 'node' = 'npx'): Promise<number> {
  const port = await freePort()
  const started = performance.now()
  const [command, ...args] =
    via === 'npx'
      ? ['npx', 'intent-devnet']
      : [process.execPath, join(project, 'node_modules/intent-devnet/bin/intent-devnet.js')]
  const child = spawn(command!, [...args, 'up', '--port', String(port)], {
    cwd: project,
    stdio: 'ignore',
    detached: true,
  })
  const exited = new Promise((resolve) => child.once('exit', resolve))
  for (;;) {
    const ok = await fetch(`http://127.0.0.1:${port}/health`).then(
      (response) => response.ok,
      () => false,
    )
    if (ok) break
    await new Promise((resolve) => setTimeout(resolve, 10))
  }
  const ms = performance.now() - started
  process.kill(-child.pid!, 'SIGTERM')
  await exited
  // The CLI stops its Anvils after npx has gone: give it a moment before the next start.
  await new Promise((resolve) => setTimeout(resolve, 1500))
  return ms
}

const work = mkdtempSync(join(tmpdir(), 'bench-package-'))
try {
  const packed = JSON.parse(
    (await sh('npm', ['pack', '--json', '--pack-destination', work], root)).replace(/^[^[]*/, ''),
  ) as { filename: string; size: number; unpackedSize: number; entryCount: number }[]
  const { filename, size, unpackedSize, entryCount } = packed[0]!
  console.log(
    `tarball: ${(size / 1e6).toFixed(2)} MB (${(unpackedSize / 1e6).toFixed(1)} MB unpacked, ${entryCount} files)`,
  )
  const project = join(work, 'consumer')
  mkdirSync(project)
  writeFileSync(join(project, 'package.json'), JSON.stringify({ name: 'consumer', private: true }))
  const installStarted = performance.now()
  await sh('npm', ['install', join(work, filename), '--prefer-offline', '--no-audit', '--no-fund'], project)
  console.log(`install (npm cache warm): ${((performance.now() - installStarted) / 1000).toFixed(1)} s`)
  // npx's floor: a bin that does nothing, in the same project.
  mkdirSync(join(project, 'node_modules/noop'))
  writeFileSync(
    join(project, 'node_modules/noop/package.json'),
    JSON.stringify({ name: 'noop', version: '1.0.0', bin: { noop: 'noop.js' } }),
  )
  writeFileSync(join(project, 'node_modules/noop/noop.js'), '#!/usr/bin/env node\n', { mode: 0o755 })
  symlinkSync('../noop/noop.js', join(project, 'node_modules/.bin/noop'))
  // One start first: the user's code cache of this install is written by it.
  await upFromInstall(project)
  const series = { bare: [] as number[], npxNoop: [] as number[], up: [] as number[], node: [] as number[] }
  for (let i = 0; i < runs; i++) {
    series.bare.push(await bareAnvils())
    series.npxNoop.push(await npxNoop(project))
    series.up.push(await upFromInstall(project))
    series.node.push(await upFromInstall(project, 'node'))
  }
  const bare = median(series.bare)
  const line = (label: string, values: number[]) =>
    console.log(
      `${label}: median ${median(values).toFixed(0)} ms = ${(median(values) / bare).toFixed(2)}x the bare Anvils (${values.map((ms) => ms.toFixed(0)).join(', ')})`,
    )
  line('four bare Anvils', series.bare)
  line('npx noop (npx alone, a bin that does nothing)', series.npxNoop)
  line('npx intent-devnet up → /health', series.up)
  line('node node_modules/intent-devnet/bin/intent-devnet.js up → /health', series.node)
  console.log(
    `ratio: ${(median(series.up) / bare).toFixed(2)}x (target: within 5x); npx alone is ${(median(series.npxNoop) / bare).toFixed(2)}x`,
  )
} finally {
  rmSync(work, { recursive: true, force: true })
}
