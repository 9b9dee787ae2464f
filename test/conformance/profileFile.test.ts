import { mkdtemp, readFile, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { writeReports } from '../../conformance/reporters'
import { runConformance } from '../../conformance/runner/runConformance'
import { type LocalTarget, startLocalTarget } from '../../conformance/runner/startLocalTarget'
import { loadScenarios } from '../../conformance/scenario/loadScenarios'
import { type RewritingProxy, startRewritingProxy, vendorProfile } from './rewritingProxy'

let local: LocalTarget
let proxy: RewritingProxy
let dir: string

beforeAll(async () => {
  local = await startLocalTarget()
  proxy = await startRewritingProxy(local.target)
  dir = await mkdtemp(join(tmpdir(), 'profile-run-'))
  await writeFile(join(dir, 'vendor.yaml'), vendorProfile)
})
afterAll(async () => {
  await proxy?.close()
  await local?.stop()
})

const IDS = [
  'quotes.blanc-route-schema',
  'quotes.alps-route-schema',
  'settlement.blanc-lifecycle',
  'withdrawals.single-executed',
  'versioning.missing-header',
  'versioning.version-paths',
  'versioning.known-versions',
]

describe('--profile FILE against a target that serves the spec routes under other paths', () => {
  test('without the profile the renamed routes fail; with it every scenario passes and every report names it', async () => {
    const scenarios = (await loadScenarios({})).filter((s) => IDS.includes(s.id))
    expect(scenarios.map((s) => s.id).sort()).toEqual([...IDS].sort())
    const base = { target: proxy.url, apiKey: local.apiKey, scenarios, timeoutSeconds: 90 }

    const run = await runConformance({ ...base, profile: join(dir, 'vendor.yaml') })
    const failed = run.scenarios.flatMap((s) =>
      s.checks.filter((c) => c.status === 'failed').map((c) => `${c.id}: ${c.message ?? ''}`),
    )
    expect(failed).toEqual([])
    expect(run.scenarios.map((s) => s.status)).toEqual(scenarios.map(() => 'passed'))
    // Each renamed route was really used (the CAIP-2 chain of the status included).
    expect([...proxy.rewritten.keys()].sort()).toEqual(['order', 'quotes', 'signatures', 'withdrawals'])
    expect(run.metadata.profile).toBe('vendor-v9 (vendor.yaml)')

    let console = ''
    const written = await writeReports(
      run,
      ['console', 'json', 'junit', 'html'],
      join(dir, 'out'),
      (text) => {
        console += text
      },
    )
    expect(console).toContain('profile vendor-v9 (vendor.yaml)')
    for (const file of written)
      expect(await readFile(file, 'utf8'), file).toContain('vendor-v9 (vendor.yaml)')

    const spec = await runConformance({
      ...base,
      scenarios: scenarios.filter((s) => s.id === 'quotes.blanc-route-schema'),
    })
    expect(spec.scenarios[0]!.status).toBe('failed')
    expect(spec.metadata.profile).toBe('spec')
  }, 180_000)
})
