import { execFile } from 'node:child_process'
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { promisify } from 'node:util'
import { afterAll, expect, test } from 'vitest'

const root = join(import.meta.dirname, '..', '..')
const bin = join(root, 'node_modules', '.bin', 'depcruise')
const config = join(root, '.dependency-cruiser.cjs')

type Violation = { from: string; to: string; rule: { name: string } }

/** Runs the project's import-direction check (npm run check:imports) in `cwd` and returns its violations. */
async function violations(cwd: string, ...paths: string[]): Promise<Violation[]> {
  const run = promisify(execFile)(bin, [...paths, '--config', config, '--output-type', 'json'], {
    cwd,
    maxBuffer: 64 * 1024 * 1024,
  }).catch((error: { stdout: string }) => ({ stdout: error.stdout }))
  const { stdout } = await run
  return (JSON.parse(stdout) as { summary: { violations: Violation[] } }).summary.violations
}

// The probes (files that break a layer) live in a tree of their own, laid out like the project's
// (its tsconfig, the probes, empty stand-ins for the modules they import) and checked with the
// project's rules: never in simulator/, where a tsc, biome, jsdoc.test.ts or `npm run
// check:imports` running at the same time would see them.
const probeTree = mkdtempSync(join(tmpdir(), 'arch-probes-'))
const probes = {
  quotingImportsHttp: { file: 'simulator/quoting/archProbe.ts', imports: '../http/app' },
  intentsImportSettlement: { file: 'simulator/intents/archProbe.ts', imports: '../settlement/contractArgs' },
  simulatorImportsConformance: {
    file: 'simulator/http/archProbe.ts',
    imports: '../../conformance/runner/captures',
  },
  runnerImportsSimulatorInternals: {
    file: 'conformance/runner/archProbe.ts',
    imports: '../../simulator/util/clock',
  },
  specImportsSimulator: { file: 'spec/archProbe.ts', imports: '../simulator/index' },
  depositsImportFaults: { file: 'simulator/deposits/archProbe.ts', imports: '../faults/faults' },
  httpPluginImportsFaults: { file: 'simulator/http/plugins/archProbe.ts', imports: '../../faults/faults' },
  httpRouteImportsFaultPlugin: {
    file: 'simulator/http/routes/archProbe.ts',
    imports: '../../faultInjection/http/httpFaults',
  },
  faultDecoratorImportsHttp: { file: 'simulator/faultInjection/archProbe.ts', imports: '../http/app' },
}
copyFileSync(join(root, 'tsconfig.json'), join(probeTree, 'tsconfig.json'))
for (const { file, imports } of Object.values(probes)) {
  const target = join(dirname(file), `${imports}.ts`)
  for (const [path, text] of [
    [file, `import '${imports}'\n`],
    [target, 'export {}\n'],
  ] as const) {
    mkdirSync(join(probeTree, dirname(path)), { recursive: true })
    writeFileSync(join(probeTree, path), text)
  }
}

// A cycle as the devnet's actions could make one (clock ⇄ checkpoint), one way type-only: the
// rule sees type-only imports too (tsPreCompilationDeps), which tsc erases but still ties together.
const cycle = {
  'simulator/devnet/actions/clockProbe.ts':
    "import { saveMeta } from './checkpointProbe'\nexport const alignClocks = () => saveMeta\n",
  'simulator/devnet/actions/checkpointProbe.ts':
    "import type { alignClocks } from './clockProbe'\nexport const saveMeta = (align: typeof alignClocks) => align\n",
}
for (const [path, text] of Object.entries(cycle)) {
  mkdirSync(join(probeTree, dirname(path)), { recursive: true })
  writeFileSync(join(probeTree, path), text)
}

afterAll(() => rmSync(probeTree, { recursive: true, force: true }))

// Started together: the whole tree's check is the long one, the probes' tree is a few files.
const tree = violations(
  root,
  'spec',
  'lib',
  'cli',
  'simulator',
  'conformance',
  'scripts',
  'bin',
  'test',
  'integrations',
)
const probed = violations(probeTree, 'simulator', 'conformance', 'spec')
// Awaited by the tests; a rejection is theirs to report, not an unhandled one.
tree.catch(() => {})
probed.catch(() => {})

test('the tree follows the layers', async () => {
  expect(await tree).toEqual([])
}, 60_000)

test('a domain file that imports simulator/http/ fails the check', async () => {
  const { file } = probes.quotingImportsHttp
  const found = await probed
  expect(found.filter((v) => v.from === file).map((v) => v.rule.name)).toEqual(
    expect.arrayContaining(['domain-knows-no-http', 'layer-quoting']),
  )
}, 60_000)

test('intents importing settlement (the old cycle) fails the check', async () => {
  const { file } = probes.intentsImportSettlement
  const found = await probed
  expect(found.filter((v) => v.from === file).map((v) => v.rule.name)).toContain('layer-intents')
}, 60_000)

test('an import cycle fails the check, type-only imports included', async () => {
  const found = await probed
  // dependency-cruiser reports a cycle once, from one of its files (it marks every edge of it).
  const cycles = found.filter((v) => v.rule.name === 'no-circular').map((v) => [v.from, v.to].sort())
  expect(cycles).toEqual([Object.keys(cycle).sort()])
}, 60_000)

test('a domain file that imports the fault switchboard fails the check: faults wrap the domain', async () => {
  const { file } = probes.depositsImportFaults
  const found = await probed
  expect(found.filter((v) => v.from === file).map((v) => v.rule.name)).toContain('domain-knows-no-faults')
}, 60_000)

test('an HTTP plugin or route that imports the fault switchboard or the fault plugin fails the check: HTTP faults are hooks of one plugin', async () => {
  const found = await probed
  const rules = (file: string) => found.filter((v) => v.from === file).map((v) => v.rule.name)
  expect(rules(probes.httpPluginImportsFaults.file)).toContain('http-knows-no-faults')
  expect(rules(probes.httpRouteImportsFaultPlugin.file)).toContain('http-knows-no-faults')
  // Only the HTTP fault plugin (faultInjection/http/) speaks HTTP; the domain decorators do not.
  expect(rules(probes.faultDecoratorImportsHttp.file)).toContain('domain-knows-no-http')
}, 60_000)

test('the contract is the bottom: the simulator never imports conformance/, conformance only the public simulator, spec/ neither', async () => {
  const found = await probed
  const rules = (file: string) => found.filter((v) => v.from === file).map((v) => v.rule.name)
  expect(rules(probes.simulatorImportsConformance.file)).toContain('simulator-knows-no-conformance')
  expect(rules(probes.runnerImportsSimulatorInternals.file)).toContain(
    'conformance-uses-only-the-public-simulator',
  )
  expect(rules(probes.specImportsSimulator.file)).toContain('spec-is-the-bottom')
}, 60_000)
