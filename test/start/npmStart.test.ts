import { type ChildProcess, spawn } from 'node:child_process'
import { mkdtempSync, readFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, expect, test } from 'vitest'

// `npm start` as a user runs it (the bin and its bundle): the service answers, and every file
// read at run time beside a module (explorer assets, Swagger UI's, the scenario packs,
// package.json) is still found from the bundle.
const root = join(import.meta.dirname, '../..')
let child: ChildProcess
let baseUrl: string
let stopped: Promise<number | null>

beforeAll(async () => {
  child = spawn('npm', ['start', '--silent', '--', '--port', '0'], { cwd: root, detached: true })
  stopped = new Promise((resolve) => child.once('exit', (code) => resolve(code)))
  let out = ''
  baseUrl = await new Promise<string>((resolve, reject) => {
    child.stdout!.on('data', (data) => {
      out += data
      const url = out.match(/is up at (http:\/\/\S+)/)?.[1]
      if (url) resolve(url)
    })
    child.stderr!.on('data', (data) => (out += data))
    child.once('exit', () => reject(new Error(`npm start exited:\n${out}`)))
  })
})
afterAll(async () => {
  if (child?.pid && child.exitCode === null) process.kill(-child.pid, 'SIGTERM')
  await stopped
})

test('npm start serves the API, the explorer and the docs page from the bundle', async () => {
  expect((await fetch(`${baseUrl}/health`)).status).toBe(200)
  const explorer = await fetch(`${baseUrl}/explorer`)
  expect(explorer.status).toBe(200)
  expect(await explorer.text()).toContain('intent-devnet explorer')
  const script = await fetch(`${baseUrl}/explorer/explorer.js`)
  expect(await script.text()).toBe(readFileSync(join(root, 'simulator/http/explorer/explorer.js'), 'utf8'))
  expect((await fetch(`${baseUrl}/docs/static/swagger-ui-bundle.js`)).status).toBe(200)
  const openapi = (await (await fetch(`${baseUrl}/openapi.json`)).json()) as { paths: object }
  expect(Object.keys(openapi.paths).length).toBeGreaterThan(10)
})

test('intent-devnet conformance from the bundle finds the scenario packs and reports the version', async () => {
  const out = mkdtempSync(join(tmpdir(), 'npm-start-conformance-'))
  const args = [
    '--target',
    baseUrl,
    '--api-key',
    'devnet-key',
    '--pack',
    'versioning',
    '--reporter',
    'json',
    '--out',
    out,
  ]
  const code = await new Promise<number | null>((resolve) =>
    spawn(process.execPath, ['bin/intent-devnet.js', 'conformance', ...args], {
      cwd: root,
      stdio: 'ignore',
    }).once('exit', resolve),
  )
  expect(code).toBe(0)
  const report = JSON.parse(readFileSync(join(out, 'report.json'), 'utf8')) as {
    metadata: { runnerVersion: string }
    scenarios: { pack: string }[]
  }
  const { version } = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { version: string }
  // runMetadata reads package.json beside its module; 'unknown' if the bundle lost the path.
  expect(report.metadata.runnerVersion).toBe(version)
  expect(report.scenarios.length).toBeGreaterThan(3)
  expect(report.scenarios.every((scenario) => scenario.pack === 'versioning')).toBe(true)
})

test('SIGTERM (as Ctrl-C sends SIGINT, to the whole group) stops the service and its Anvils', async () => {
  const manifest = (await (
    await fetch(`${baseUrl}/_devnet/manifest`, { headers: { 'x-api-key': 'devnet-key' } })
  ).json()) as { chains: { rpcUrl: string }[] }
  expect(manifest.chains).toHaveLength(4)
  process.kill(-child.pid!, 'SIGTERM')
  await stopped
  // npm itself dies of the signal; the service stops its Anvils, or their parent-death signal does.
  const deadline = Date.now() + 10_000
  const answering = async () =>
    (
      await Promise.all(
        manifest.chains.map((chain) =>
          fetch(chain.rpcUrl, { method: 'POST', body: '{}' }).then(
            () => true,
            () => false,
          ),
        ),
      )
    ).some(Boolean)
  while ((await answering()) && Date.now() < deadline)
    await new Promise((resolve) => setTimeout(resolve, 100))
  expect(await answering()).toBe(false)
  await expect(fetch(`${baseUrl}/health`)).rejects.toThrow()
})
