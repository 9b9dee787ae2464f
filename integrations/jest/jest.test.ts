import { spawn } from 'node:child_process'
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, expect, it } from 'vitest'

const root = join(import.meta.dirname, '..', '..')
const work = mkdtempSync(join(tmpdir(), 'jest-integrator-'))
afterAll(() => rmSync(work, { recursive: true, force: true }))

type JestResults = {
  success: boolean
  numTotalTestSuites: number
  numPassedTestSuites: number
  numTotalTests: number
  numPassedTests: number
  numFailedTests: number
  testResults: { name: string; status: string; assertionResults: { title: string; status: string }[] }[]
}
/** What each fixture file saw (written to INTENT_DEVNET_JEST_FIXTURE_OUT when it ends). */
type Seen = { pid: number; manifestPath: string; urls: string[] }

/** Pids of live (not zombie) processes whose command line contains `text` (Linux /proc). */
const processesWith = (text: string) =>
  readdirSync('/proc')
    .filter((entry) => /^\d+$/.test(entry))
    .filter((pid) => {
      try {
        return (
          readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes(text) &&
          !/\) Z /.test(readFileSync(`/proc/${pid}/stat`, 'utf8'))
        )
      } catch {
        return false // gone meanwhile
      }
    })

// The real Jest CLI on an integrator's project (integrations/fixtures/jest: the README's config,
// two plain CommonJS test files). intent-devnet resolves from there as the package itself.
// --maxWorkers=2 and an empty cache directory (no timings to judge the files fast by): Jest runs
// the files in worker processes, which get the manifest only through the environment.
it('Jest: globalSetup starts one devnet for the run, the test files in its workers get the manifest, isolateDevnet reverts, globalTeardown stops it all', async () => {
  const results = join(work, 'results.json')
  const out = join(work, 'seen')
  mkdirSync(out)
  const env: NodeJS.ProcessEnv = { ...process.env, INTENT_DEVNET_JEST_FIXTURE_OUT: out, NO_COLOR: '1' }
  for (const name of ['INTENT_DEVNET_MANIFEST', 'INTENT_DEVNET_URL', 'INTENT_DEVNET_API_KEY'])
    delete env[name]
  const jest = spawn(
    process.execPath,
    [
      join(root, 'node_modules/jest/bin/jest.js'),
      '--config',
      join(root, 'integrations/fixtures/jest/jest.config.cjs'),
      '--ci',
      '--json',
      '--outputFile',
      results,
      '--maxWorkers=2',
      '--cacheDirectory',
      join(work, 'cache'),
    ],
    { cwd: root, env, stdio: ['ignore', 'pipe', 'pipe'] },
  )
  let output = ''
  jest.stdout.on('data', (chunk) => {
    output += chunk
  })
  jest.stderr.on('data', (chunk) => {
    output += chunk
  })
  // A Jest that hangs goes before this test times out (and takes its devnet with it).
  const hung = setTimeout(() => jest.kill('SIGKILL'), 60_000)
  const code = await new Promise((resolve) => jest.once('exit', (code, signal) => resolve(code ?? signal)))
  clearTimeout(hung)
  expect(code, output).toBe(0)

  const report = JSON.parse(readFileSync(results, 'utf8')) as JestResults
  expect(report.success, output).toBe(true)
  expect(report.numTotalTestSuites).toBe(2)
  expect(report.numPassedTestSuites).toBe(2)
  expect(report.numTotalTests).toBe(5)
  expect(report.numPassedTests).toBe(5)
  expect(report.numFailedTests).toBe(0)
  const titles = report.testResults.flatMap((file) =>
    file.assertionResults.map((test) => `${file.name.split('/').at(-1)}: ${test.title} (${test.status})`),
  )
  expect(titles.sort()).toEqual([
    'isolation.spec.cjs: a test changes chain state (passed)',
    'isolation.spec.cjs: the manifest reaches the test file, with the options of the config (passed)',
    'isolation.spec.cjs: the next test starts from the snapshot again (passed)',
    'quote.spec.cjs: a quote: 100 USDC on Base, paid with WETH (passed)',
    'quote.spec.cjs: every file gets the same devnet (passed)',
  ])

  const isolation = JSON.parse(readFileSync(join(out, 'isolation.json'), 'utf8')) as Seen
  const quote = JSON.parse(readFileSync(join(out, 'quote.json'), 'utf8')) as Seen
  // One devnet for the run, seen by both files, from worker processes (not Jest's own).
  expect(quote.manifestPath).toBe(isolation.manifestPath)
  expect(quote.urls).toEqual(isolation.urls)
  expect(isolation.urls).toHaveLength(3) // the service and two chains
  expect(isolation.pid).not.toBe(jest.pid)
  expect(quote.pid).not.toBe(jest.pid)

  // Jest has exited: the service and its Anvils are gone, and so is the manifest file.
  for (const url of isolation.urls) await expect(fetch(url), url).rejects.toThrow()
  expect(existsSync(isolation.manifestPath)).toBe(false)
  expect(processesWith(isolation.manifestPath)).toEqual([])
}, 90_000)

// A Jest process that ends without its teardown (SIGKILL here; a crash, --forceExit): the devnet
// it started stops on its own (stopWithParent.cjs: its stdin, a pipe from that process, closes).
// Jest's parent process stands in as a plain Node process that ran the global setup.
it('the devnet stops when the process that ran the global setup is killed', async () => {
  const setup = join(root, 'integrations/jest/globalSetup.cjs')
  const parent = spawn(
    process.execPath,
    [
      '-e',
      `require(${JSON.stringify(setup)})({}, { globals: { intentDevnetOptions: { chainIds: [10] } } }).then(() => {
         console.log(JSON.stringify({ manifestPath: process.env.INTENT_DEVNET_MANIFEST, url: process.env.INTENT_DEVNET_URL }))
         setInterval(() => {}, 1000)
       })`,
    ],
    { stdio: ['ignore', 'pipe', 'inherit'] },
  )
  try {
    const started = await new Promise<{ manifestPath: string; url: string }>((resolve, reject) => {
      let output = ''
      parent.stdout.on('data', (chunk) => {
        output += chunk
        if (output.includes('\n')) resolve(JSON.parse(output))
      })
      parent.once('exit', (code) => reject(new Error(`exited with ${code}: ${output}`)))
    })
    const manifest = JSON.parse(readFileSync(started.manifestPath, 'utf8')) as {
      chains: { rpcUrl: string }[]
    }
    const urls = [started.url, manifest.chains[0]!.rpcUrl]
    for (const url of urls) expect((await fetch(url, { method: 'POST' })).status).toBeLessThan(500)
    expect(processesWith(started.manifestPath)).toHaveLength(1)
    parent.kill('SIGKILL')
    await expect
      .poll(() => processesWith(started.manifestPath), { timeout: 15_000, interval: 100 })
      .toEqual([])
    for (const url of urls) await expect(fetch(url), url).rejects.toThrow()
  } finally {
    parent.kill('SIGKILL')
  }
}, 60_000)
