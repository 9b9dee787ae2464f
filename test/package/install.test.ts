import { execFile, spawn } from 'node:child_process'
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'

// `npm pack`, then install the tarball into an empty folder as an integrator would. The install
// fetches the dependencies from the npm registry (or npm's cache: --prefer-offline): 30-90 s on
// 2 busy cores, so it runs where INTENT_DEVNET_PACKAGE_TEST is set (`.ci/run` sets it; locally:
// INTENT_DEVNET_PACKAGE_TEST=1 npx vitest run test/package).
const root = join(import.meta.dirname, '..', '..')
// Opt-in: packing and installing into an empty folder fetches every dependency from the npm
// registry (1–2 min). `.ci/run` sets INTENT_DEVNET_PACKAGE_TEST=1, so CI always runs it; a
// developer's `npm test` skips it unless they set it.
const enabled = Boolean(process.env.INTENT_DEVNET_PACKAGE_TEST)
const work = enabled ? mkdtempSync(join(tmpdir(), 'package-install-')) : ''
const consumer = join(work, 'consumer')
const installed = join(consumer, 'node_modules', 'intent-devnet')

const run = (command: string, args: string[], cwd: string) =>
  new Promise<string>((resolve, reject) =>
    execFile(command, args, { cwd, maxBuffer: 64 * 1024 * 1024 }, (error, stdout, stderr) =>
      error
        ? reject(new Error(`${command} ${args.join(' ')}: ${error.message}\n${stderr}`))
        : resolve(stdout),
    ),
  )

describe.skipIf(!enabled)('the npm package', () => {
  let files: string[]

  beforeAll(async () => {
    const [pack] = JSON.parse(
      await run('npm', ['pack', '--json', '--ignore-scripts', '--pack-destination', work], root),
    ) as {
      filename: string
      files: { path: string }[]
    }[]
    files = pack!.files.map((file) => file.path)
    mkdirSync(consumer)
    writeFileSync(
      join(consumer, 'package.json'),
      JSON.stringify({ name: 'consumer', private: true, type: 'module' }),
    )
    await run(
      'npm',
      ['install', join(work, pack!.filename), '--prefer-offline', '--no-audit', '--no-fund'],
      consumer,
    )
  }, 180_000)
  afterAll(() => rmSync(work, { recursive: true, force: true }))

  it('ships the CLI, the entry points, the scenarios and the image build, and no tests', () => {
    for (const path of [
      'bin/intent-devnet.js',
      'scripts/build.ts',
      'scripts/image/buildImage.ts',
      'integrations/testcontainers.ts',
      'integrations/vitest.ts',
      'integrations/jest/globalSetup.cjs',
      'integrations/jest/stopWithParent.cjs',
      'spec/index.ts',
      'simulator/http/explorer/index.html',
      'scenarios/authentication/missing-key.yaml',
    ])
      expect(files).toContain(path)
    expect(
      files.filter((path) => path.endsWith('.test.ts') || path.startsWith('integrations/fixtures')),
    ).toEqual([])
    const { exports } = JSON.parse(readFileSync(join(installed, 'package.json'), 'utf8')) as {
      exports: Record<string, string>
    }
    for (const [name, path] of Object.entries(exports))
      expect(existsSync(join(installed, path)), name).toBe(true)
  })

  it('`npx intent-devnet up` serves the devnet from the installed package and stops on SIGTERM', async () => {
    // In a process group of its own, stopped as a terminal's Ctrl-C would: npx runs the bin
    // through `sh -c`, which does not pass a signal sent to npx alone on to it.
    const child = spawn('npx', ['intent-devnet', 'up', '--port', '0', '--chains', '10'], {
      cwd: consumer,
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true,
    })
    let output = ''
    const baseUrl = await new Promise<string>((resolve, reject) => {
      const onData = (chunk: Buffer) => {
        output += chunk
        const match = output.match(/intent-devnet is up at (http:\/\/\S+)/)
        if (match) resolve(match[1]!)
      }
      child.stdout.on('data', onData)
      child.stderr.on('data', onData)
      child.once('exit', (code) => reject(new Error(`exited with ${code}:\n${output}`)))
    })
    expect((await fetch(`${baseUrl}/health`)).status).toBe(200)
    expect((await fetch(`${baseUrl}/explorer`)).status).toBe(200)
    expect((await fetch(`${baseUrl}/docs/`)).status).toBe(200)
    const exited = new Promise((resolve) => child.once('exit', resolve))
    process.kill(-child.pid!, 'SIGTERM')
    await exited
    // npx itself exits at once on SIGTERM; the CLI, which got the signal too, stops its service
    // and its Anvils in its own time: it must be gone within seconds.
    const deadline = Date.now() + 10_000
    let answering = true
    while (answering && Date.now() < deadline) {
      answering = await fetch(`${baseUrl}/health`, { headers: { connection: 'close' } }).then(
        () => true,
        () => false,
      )
      if (answering) await new Promise((resolve) => setTimeout(resolve, 100))
    }
    await expect(fetch(`${baseUrl}/health`)).rejects.toThrow()
  }, 120_000)

  it('the runner API, the spec schemas and the bundled scenarios load (under tsx, a dependency)', async () => {
    writeFileSync(
      join(consumer, 'check.mjs'),
      `const spec = await import('intent-devnet/spec')
       const runner = await import('intent-devnet/conformance')
       const { startSimulator } = await import('intent-devnet')
       console.log(JSON.stringify({ manifest: typeof spec.DevnetManifest.parse, run: typeof runner.runConformance,
         start: typeof startSimulator, scenarios: (await runner.loadScenarios()).length }))`,
    )
    const result = JSON.parse(await run(process.execPath, ['--import', 'tsx', 'check.mjs'], consumer))
    expect(result).toEqual({
      manifest: 'function',
      run: 'function',
      start: 'function',
      scenarios: expect.any(Number),
    })
    expect(result.scenarios).toBeGreaterThan(20)
  }, 60_000)

  it('intent-devnet/vitest works from node_modules in an integrator’s vitest run', async () => {
    symlinkSync(join(root, 'node_modules/vitest'), join(consumer, 'node_modules/vitest'))
    cpSync(join(root, 'integrations/fixtures/vitest'), consumer, { recursive: true })
    const output = await run(process.execPath, ['node_modules/vitest/vitest.mjs', 'run'], consumer)
    // biome-ignore lint/suspicious/noControlCharactersInRegex: colours in vitest's output
    expect(output.replace(/\x1b\[[0-9;]*m/g, '')).toMatch(/Tests\s+6 passed \(6\)/)
  }, 120_000)

  it('intent-devnet/jest works from node_modules in an integrator’s Jest run (no transform)', async () => {
    symlinkSync(join(root, 'node_modules/jest'), join(consumer, 'node_modules/jest'))
    cpSync(join(root, 'integrations/fixtures/jest'), join(consumer, 'jest'), { recursive: true })
    const output = await run(
      process.execPath,
      ['node_modules/jest/bin/jest.js', '--config', 'jest/jest.config.cjs', '--ci', '--json'],
      consumer,
    )
    const report = JSON.parse(output) as { success: boolean; numPassedTests: number; numTotalTests: number }
    expect(report).toMatchObject({ success: true, numPassedTests: 5, numTotalTests: 5 })
  }, 120_000)
})
