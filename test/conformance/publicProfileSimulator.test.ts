import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { runConformance } from '../../conformance/runner/runConformance'
import { type LocalTarget, startLocalTarget } from '../../conformance/runner/startLocalTarget'
import { loadScenarios } from '../../conformance/scenario/loadScenarios'

// The simulator serves the spec's paths and the public service's (POST /quotes, POST /intents,
// GET /intents/{id}) for blanc, and treats a request without x-api-version as alps: judged through
// the public profile, it departs from nothing.
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
})
