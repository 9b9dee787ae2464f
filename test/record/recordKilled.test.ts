import { type ChildProcess, spawn } from 'node:child_process'
import { existsSync } from 'node:fs'
import { mkdtemp, readFile, rm } from 'node:fs/promises'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, it } from 'vitest'
import { parseScenario } from '../../conformance/scenario/loadScenarios'

/**
 * `intent-devnet record` appends every exchange to `FILE.journal` as it happens: a recorder that
 * is killed (no Ctrl-C, no POST /_record/stop) still leaves its recording, and
 * `record --from-journal` writes the scenario from it. Ctrl-C writes the file itself.
 */
const root = join(import.meta.dirname, '../..')
let plain: Server
let target: string
let dir: string

beforeAll(async () => {
  let next = 0
  plain = createServer((req, res) => {
    res.setHeader('content-type', 'application/json')
    if (req.url?.startsWith('/counter')) {
      res.writeHead(200)
      res.end(
        JSON.stringify({ counter: next++, ticket: `ticket_${Math.random().toString(16).slice(2, 14)}` }),
      )
    } else {
      res.writeHead(404)
      res.end('{"error":"not found"}')
    }
  })
  await new Promise<void>((resolve) => plain.listen(0, '127.0.0.1', resolve))
  target = `http://127.0.0.1:${(plain.address() as AddressInfo).port}`
  dir = await mkdtemp(join(tmpdir(), 'record-killed-'))
})

afterAll(async () => {
  await new Promise<void>((resolve) => plain?.close(() => resolve()))
  if (dir) await rm(dir, { recursive: true, force: true })
})

/** The CLI from its sources (no bundle build in the working tree). */
const cli = (args: string[]) => {
  const child = spawn(process.execPath, ['bin/intent-devnet.js', ...args], {
    cwd: root,
    env: { ...process.env, INTENT_DEVNET_BUNDLE: '0' },
  })
  let stdout = ''
  let stderr = ''
  child.stdout.on('data', (data) => (stdout += data))
  child.stderr.on('data', (data) => (stderr += data))
  const exited = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)))
  return { child, exited, output: () => ({ stdout, stderr }) }
}

/**
 * `record` as `npx` runs it: a parent process (npm exec) runs `sh -c`, which runs the bin; neither
 * passes a signal on. The parent here is a small node process.
 */
const cliUnderNpx = (args: string[]) => {
  const command = ['node', 'bin/intent-devnet.js', ...args].map((a) => `'${a}'`).join(' ')
  const parent = `require('node:child_process').spawn('sh', ['-c', ${JSON.stringify(`${command}; true`)}], { stdio: 'inherit' }); setInterval(() => {}, 1e6)`
  const child = spawn(process.execPath, ['-e', parent], {
    cwd: root,
    env: { ...process.env, INTENT_DEVNET_BUNDLE: '0' },
  })
  let stdout = ''
  let stderr = ''
  child.stdout.on('data', (data) => (stdout += data))
  child.stderr.on('data', (data) => (stderr += data))
  // Closed once every process that holds the pipes (the recorder too) has ended.
  const exited = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)))
  return { child, exited, output: () => ({ stdout, stderr }) }
}

/** `record` under the real `npx` (npm exec → sh -c → the bin), npx in a process group of its own. */
const cliUnderRealNpx = (args: string[]) => {
  const child = spawn('npx', ['intent-devnet', ...args], {
    cwd: root,
    env: { ...process.env, INTENT_DEVNET_BUNDLE: '0' },
    detached: true,
  })
  let stdout = ''
  let stderr = ''
  child.stdout.on('data', (data) => (stdout += data))
  child.stderr.on('data', (data) => (stderr += data))
  const exited = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)))
  return { child, exited, output: () => ({ stdout, stderr }) }
}

/** Starts `record` and waits for the proxy's URL. */
async function startRecord(
  out: string,
  run = cli(['record', '--target', target, '--api-key', 'killed-key-1234', '--port', '0', '--out', out]),
): Promise<{
  child: ChildProcess
  url: string
  exited: Promise<number | null>
  output: () => { stdout: string; stderr: string }
}> {
  for (let i = 0; i < 1500; i++) {
    const match = /through (http:\/\/\S+)/.exec(run.output().stdout)
    if (match) return { ...run, url: match[1]! }
    if (run.child.exitCode !== null) break
    await new Promise((resolve) => setTimeout(resolve, 20))
  }
  run.child.kill('SIGKILL')
  throw new Error(`record did not start: ${JSON.stringify(run.output())}`)
}

// Each request its own path: identical GETs in a row would be one polling step.
const get = (url: string, i: number) =>
  fetch(`${url}/counter?i=${i}`, { headers: { 'x-api-key': 'killed-key-1234' } })

// The recorders are processes of their own, each with its own file: run side by side.
describe.concurrent('a recorder that stops', () => {
  it('killed (SIGKILL), leaves a journal that record --from-journal writes as the scenario', async ({
    expect,
  }) => {
    const out = join(dir, 'killed.yaml')
    const record = await startRecord(out)
    for (let i = 0; i < 25; i++) expect((await get(record.url, i)).status).toBe(200)
    // The journal is written at most 20 ms after each exchange: killed once all 25 are on disk.
    const journaled = async () =>
      ((await readFile(`${out}.journal`, 'latin1')).match(/"path":"\/counter/g) ?? []).length
    for (let waited = 0; (await journaled()) < 25 && waited < 5000; waited += 10)
      await new Promise((resolve) => setTimeout(resolve, 10))
    record.child.kill('SIGKILL')
    await record.exited
    expect(existsSync(out)).toBe(false)
    expect(existsSync(`${out}.journal`)).toBe(true)
    expect(await readFile(`${out}.journal`, 'latin1')).not.toContain('killed-key-1234')

    const recover = cli(['record', '--from-journal', `${out}.journal`, '--out', out])
    expect(await recover.exited, JSON.stringify(recover.output())).toBe(0)
    expect(recover.output().stdout).toMatch(/wrote .*killed\.yaml: 25 steps from 25 exchanges/)
    const text = await readFile(out, 'utf8')
    const loaded = parseScenario(text, out)
    expect(loaded.problems).toEqual([])
    expect(loaded.scenario!.steps).toHaveLength(25)
    expect(text).not.toContain('killed-key-1234')
    expect(existsSync(`${out}.journal`)).toBe(false)
  }, 120_000)

  it('Ctrl-C (SIGINT) writes the file, with every exchange it accepted', async ({ expect }) => {
    const out = join(dir, 'interrupted.yaml')
    const record = await startRecord(out)
    for (let i = 0; i < 10; i++) expect((await get(record.url, i)).status).toBe(200)
    record.child.kill('SIGINT')
    expect(await record.exited, JSON.stringify(record.output())).toBe(0)
    expect(record.output().stdout).toMatch(/wrote .*interrupted\.yaml: 10 steps from 10 exchanges/)
    const loaded = parseScenario(await readFile(out, 'utf8'), out)
    expect(loaded.scenario!.steps).toHaveLength(10)
    expect(existsSync(`${out}.journal`)).toBe(false)
  }, 120_000)

  it('SIGTERM to the npx that runs it (which does not pass it on) writes the file all the same', async ({
    expect,
  }) => {
    const out = join(dir, 'npx.yaml')
    const record = await startRecord(
      out,
      cliUnderNpx([
        'record',
        '--target',
        target,
        '--api-key',
        'killed-key-1234',
        '--port',
        '0',
        '--out',
        out,
      ]),
    )
    for (let i = 0; i < 5; i++) expect((await get(record.url, i)).status).toBe(200)
    record.child.kill('SIGTERM')
    await record.exited
    expect(record.output().stdout).toMatch(/stopping: its parent process \d+ ended/)
    expect(record.output().stdout).toMatch(/wrote .*npx\.yaml: 5 steps from 5 exchanges/)
    expect(parseScenario(await readFile(out, 'utf8'), out).scenario!.steps).toHaveLength(5)
  }, 120_000)

  it('SIGINT to the real npx (npm passes it to its shell, which keeps it) writes the file', async ({
    expect,
  }) => {
    const out = join(dir, 'npx-int.yaml')
    const args = ['record', '--target', target, '--api-key', 'killed-key-1234', '--port', '0', '--out', out]
    const record = await startRecord(out, cliUnderRealNpx(args))
    try {
      for (let i = 0; i < 5; i++) expect((await get(record.url, i)).status).toBe(200)
      // To npx alone, as `kill -INT <npx pid>` sends it (Ctrl-C in a terminal signals the whole group).
      record.child.kill('SIGINT')
      await record.exited
      expect(record.output().stdout).toMatch(
        /stopping: its parent process \d+ \(the shell npx runs it with\) was interrupted/,
      )
      expect(record.output().stdout).toMatch(/wrote .*npx-int\.yaml: 5 steps from 5 exchanges/)
      expect(parseScenario(await readFile(out, 'utf8'), out).scenario!.steps).toHaveLength(5)
    } finally {
      // Nothing of the group left running if it did not stop (its pid is the group's id).
      try {
        process.kill(-record.child.pid!, 'SIGKILL')
      } catch {}
    }
  }, 120_000)
})
