import { execFile } from 'node:child_process'
import { randomUUID } from 'node:crypto'
import { rm, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { afterEach, expect, test } from 'vitest'

const root = join(import.meta.dirname, '..', '..')
const bin = join(root, 'node_modules', '.bin', 'depcruise')
const probes: string[] = []

type Violation = { from: string; to: string; rule: { name: string } }

/** Runs the project's import-direction check (npm run check:imports) and returns its violations. */
async function violations(...paths: string[]): Promise<Violation[]> {
  const run = promisify(execFile)(
    bin,
    [...paths, '--config', '.dependency-cruiser.cjs', '--output-type', 'json'],
    { cwd: root, maxBuffer: 64 * 1024 * 1024 },
  ).catch((error: { stdout: string }) => ({ stdout: error.stdout }))
  const { stdout } = await run
  return (JSON.parse(stdout) as { summary: { violations: Violation[] } }).summary.violations
}

/** Writes a source file that imports `target`, removed after the test. */
async function probe(folder: string, target: string): Promise<string> {
  const file = join('simulator', folder, `archProbe${randomUUID().slice(0, 8)}.ts`)
  probes.push(file)
  await writeFile(join(root, file), `import '${target}'\n`)
  return file
}

afterEach(async () => {
  for (const file of probes.splice(0)) await rm(join(root, file), { force: true })
})

test('the tree follows the layers', async () => {
  expect(await violations('simulator', 'conformance', 'scripts', 'bin', 'test')).toEqual([])
}, 60_000)

test('a domain file that imports simulator/http/ fails the check', async () => {
  const file = await probe('quoting', '../http/app')
  const found = await violations('simulator/quoting', 'simulator/http')
  expect(found.filter((v) => v.from === file).map((v) => v.rule.name)).toEqual(
    expect.arrayContaining(['domain-knows-no-http', 'layer-quoting']),
  )
}, 60_000)

test('intents importing settlement (the old cycle) fails the check', async () => {
  const file = await probe('intents', '../settlement/contractArgs')
  const found = await violations('simulator/intents', 'simulator/settlement')
  expect(found.filter((v) => v.from === file).map((v) => v.rule.name)).toContain('layer-intents')
}, 60_000)
