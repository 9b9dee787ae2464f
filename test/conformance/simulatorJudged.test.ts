import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { runConformance } from '../../conformance/runner/runConformance'
import { type LocalTarget, startLocalTarget } from '../../conformance/runner/startLocalTarget'
import { loadScenarios } from '../../conformance/scenario/loadScenarios'
import { DEFAULT_CHAIN_IDS } from '../../simulator/devnet/startDevnet'

// The simulator judged as a vendor would run the suite: through the public profile (it serves the
// spec's paths and the public service's, POST /quotes, POST /intents, GET /intents/{id}, for blanc,
// and treats a request without x-api-version as alps), and with --version alps or blanc alone. It
// departs from nothing either way, and nothing passes without a check.
let local: LocalTarget
beforeAll(async () => {
  local = await startLocalTarget()
})
afterAll(() => local?.stop())

describe('the simulator through --profile public', () => {
  test('every scenario of the versioning, quotes and settlement packs passes, blanc or both versions', async () => {
    const run = await runConformance({
      target: local.target,
      apiKey: local.apiKey,
      apiKeys: local.apiKeys,
      profile: 'public',
      scenarios: await loadScenarios({ packs: ['versioning', 'quotes', 'settlement'] }),
    })
    const failed = run.scenarios.flatMap((s) =>
      s.checks.filter((c) => c.status === 'failed').map((c) => `${c.id}: ${c.message}`),
    )
    expect(failed).toEqual([])
    expect(run.scenarios.filter((s) => s.status !== 'passed').map((s) => s.id)).toEqual([])
    expect(run.metadata.profile).toBe('public')
  })

  for (const version of ['alps', 'blanc'] as const)
    test(`--version ${version}: every pack passes; a step or scenario of the other version is not run, never sent as ${version}`, async () => {
      const run = await runConformance({
        target: local.target,
        apiKey: local.apiKey,
        apiKeys: local.apiKeys,
        version,
        scenarios: await loadScenarios(),
      })
      const failed = run.scenarios.flatMap((s) =>
        s.checks.filter((c) => c.status === 'failed').map((c) => `${c.id}: ${c.message}`),
      )
      expect(failed).toEqual([])
      // A scenario passes only on checks it ran; one left with nothing to run is not applicable.
      for (const scenario of run.scenarios.filter((s) => s.status === 'passed'))
        expect(scenario.checks.length, scenario.id).toBeGreaterThan(0)
      const other = version === 'alps' ? 'blanc' : 'alps'
      for (const scenario of run.scenarios.filter((s) => s.status === 'not-applicable'))
        expect(scenario.reason, scenario.id).toMatch(
          new RegExp(`(the scenario speaks|its steps speak) ${other};`),
        )
      expect(run.metadata.versions).toEqual([version])
    })
})

// The packs' own local target runs two chains (LOCAL_TARGET_CHAIN_IDS) for speed; a user judges
// `intent-devnet up` at its defaults, four chains with Ethereum's gas among them. A quote that
// charged gas of chains it takes nothing from passed on two chains and failed on four.
describe('the simulator on the default chains (what intent-devnet up runs)', () => {
  let four: LocalTarget
  beforeAll(async () => {
    four = await startLocalTarget({ chainIds: DEFAULT_CHAIN_IDS })
  }, 120_000)
  afterAll(() => four?.stop())

  test('every scenario of every pack passes, SHOULD checks included', async () => {
    const run = await runConformance({
      target: four.target,
      apiKey: four.apiKey,
      apiKeys: four.apiKeys,
      strict: true,
      scenarios: await loadScenarios(),
    })
    const failed = run.scenarios.flatMap((s) =>
      s.checks.filter((c) => c.status === 'failed').map((c) => `${c.id}: ${c.message}`),
    )
    expect(failed).toEqual([])
    expect(run.scenarios.filter((s) => s.status !== 'passed').map((s) => s.id)).toEqual([])
  }, 120_000)
})
