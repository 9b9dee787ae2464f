import { mkdtemp, readFile, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { runCli } from '../test/support/runCli'
import { type LocalTarget, startLocalTarget } from './runner/startLocalTarget'
import { loadScenarios } from './scenario/loadScenarios'

let local: LocalTarget
let out: string

beforeAll(async () => {
  local = await startLocalTarget()
  out = await mkdtemp(join(tmpdir(), 'conformance-cli-'))
})
afterAll(() => local?.stop())

const cli = (args: string[]) => runCli(['conformance', ...args])

const target = () => ['--target', local.target, '--api-key', local.apiKey]

async function setFaults(enable: string[]) {
  const response = await fetch(`${local.target}/_devnet/faults`, {
    method: 'POST',
    headers: { 'x-api-key': local.apiKey, 'content-type': 'application/json' },
    body: JSON.stringify({ clear: true, enable }),
  })
  expect(response.status).toBe(200)
}

describe('intent-devnet conformance (spawned)', () => {
  test('a conformant target exits 0 and every reporter writes its file', async () => {
    const dir = join(out, 'ok')
    const run = await cli([
      ...target(),
      '--pack',
      'versioning',
      'errors',
      '--reporter',
      'console',
      'junit',
      'json',
      'html',
      '--out',
      dir,
    ])
    expect(run.stderr).not.toMatch(/error/i)
    expect(run.code).toBe(0)
    expect(run.stdout).toMatch(/\[ ?1\/\d+\] ✓ (versioning|errors)\//)
    expect(run.stdout).toContain('Result:    conformant')
    const text = await readFile(join(dir, 'report.json'), 'utf8')
    const json = JSON.parse(text)
    // Its scenarios rendered as they ended, the rest at the end: JSON.stringify's text of it all.
    expect(text).toBe(`${JSON.stringify(json, null, 2)}\n`)
    expect(new Set(json.scenarios.map((s: { pack: string }) => s.pack))).toEqual(
      new Set(['versioning', 'errors']),
    )
    expect(json.summary.unexpected).toBe(0)
    expect(await readFile(join(dir, 'junit.xml'), 'utf8')).toMatch(/^<\?xml/)
    expect(await readFile(join(dir, 'report.html'), 'utf8')).toMatch(/^<!doctype html>/)
  })

  test('an unexpected failure exits 1; a baseline expecting it exits 0; a stale baseline exits 1', async () => {
    await setFaults(['errors.no-trace-id'])
    try {
      // Side by side (the errors pack only reads the target's state).
      const [lenient, failing] = await Promise.all([
        cli([...target(), '--pack', 'errors']),
        cli([...target(), '--strict', '--pack', 'errors', '--write-baseline', join(out, 'baseline.json')]),
      ])
      // x-trace-id is a SHOULD (the spec is silent): it fails certification only with --strict.
      expect(lenient.code).toBe(0)
      expect(lenient.stdout).toMatch(/SHOULD \d+ passed, [1-9]\d* failed/)
      expect(failing.code).toBe(1)
      expect(failing.stdout).toContain('✗ errors.trace-ids/1/header x-trace-id')
      expect(failing.stdout).toMatch(/spec: {5}public-service behaviour; the spec is silent .* \(SHOULD\)/)
      const baseline = JSON.parse(await readFile(join(out, 'baseline.json'), 'utf8'))
      expect(baseline.expectedFailures).toContain('errors.trace-ids/1/header x-trace-id')

      const expected = await cli([
        ...target(),
        '--strict',
        '--pack',
        'errors',
        '--baseline',
        join(out, 'baseline.json'),
      ])
      expect(expected.code).toBe(0)
      expect(expected.stdout).toContain('(expected by the baseline)')
    } finally {
      await setFaults([])
    }
    const stale = await cli([
      ...target(),
      '--strict',
      '--pack',
      'errors',
      '--baseline',
      join(out, 'baseline.json'),
    ])
    expect(stale.code).toBe(1)
    expect(stale.stdout).toContain('Baseline entries that now pass')
  })

  test('--shard 1/2 and 2/2 together run each scenario once', async () => {
    const runs = await Promise.all(
      ['1/2', '2/2'].map(async (shard, i) => {
        const dir = join(out, `shard${i}`)
        // No --target: each shard starts its own simulator, as separate CI machines would. (Two
        // shards against one target would share one API key's deposit-processor configuration.)
        const run = await cli(['--shard', shard, '--reporter', 'console', 'json', '--out', dir])
        expect(run.code, run.stdout + run.stderr).toBe(0)
        return JSON.parse(await readFile(join(dir, 'report.json'), 'utf8')).scenarios.map(
          (s: { id: string }) => s.id,
        )
      }),
    )
    const all = await loadScenarios()
    expect(runs[0].length).toBeGreaterThan(0)
    expect(runs[1].length).toBeGreaterThan(0)
    expect(runs[0].filter((id: string) => runs[1].includes(id))).toEqual([])
    for (const id of all.map((s) => s.id)) expect([...runs[0], ...runs[1]]).toContain(id)
  }, 150_000)

  test('bad arguments and bad scenario files are reported, exit 1', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'bad-scenarios-'))
    await import('node:fs/promises').then((fs) => fs.mkdir(join(dir, 'p')))
    await writeFile(join(dir, 'p', 'x.yaml'), 'id: x\ntitle: t\nspec: s\nsteps:\n  - http: { method: GET }\n')
    const [shard, files] = await Promise.all([
      cli([...target(), '--shard', '3/2']),
      cli([...target(), '--scenarios', dir]),
    ])
    expect(shard.code).toBe(1)
    expect(shard.stderr).toContain('--shard must be I/N')
    expect(files.code).toBe(1)
    expect(files.stderr).toContain('x.yaml:5')
    expect(files.stderr).toContain('steps[0].http.path')
  })
})
