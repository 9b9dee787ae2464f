import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { FAULT_CATALOGUE, type FaultName } from '../simulator/faults'
import { runConformance } from './runner/runConformance'
import { type LocalTarget, startLocalTarget } from './runner/startLocalTarget'
import { type LoadedScenario, loadScenarios } from './scenario/loadScenarios'

/**
 * For each fault the simulator can inject, the checks that must catch it. A fault added to the
 * catalogue without a check here fails the first test.
 */
const CAUGHT_BY: Record<FaultName, string[]> = {
  'version.missing-as-blanc': [
    'versioning.missing-header/1/any of',
    'versioning.missing-header-blanc-path/1/any of',
  ],
  'version.accept-unknown': ['versioning.unknown-version/1/status', 'versioning.unknown-version/1/any of'],
  'auth.accept-missing-key': ['authentication.missing-key/1/status'],
  'limits.accept-11-ops': ['limits.ops-per-chain/2/status'],
  'limits.accept-6-chains': ['limits.chains/2/status'],
  'errors.omit-code': ['errors.envelopes/1/envelope blanc', 'errors.envelopes/1/body /code'],
  'errors.no-trace-id': ['errors.trace-ids/1/header x-trace-id'],
  'errors.5xx-on-malformed-json': ['bad-input.malformed-json/1/status'],
}

let local: LocalTarget
let scenarios: LoadedScenario[]

beforeAll(async () => {
  local = await startLocalTarget()
  scenarios = await loadScenarios()
})
afterAll(() => local?.stop())

async function setFaults(enable: string[]) {
  const response = await fetch(`${local.target}/_devnet/faults`, {
    method: 'POST',
    headers: { 'x-api-key': local.apiKey, 'content-type': 'application/json' },
    body: JSON.stringify({ clear: true, enable }),
  })
  expect(response.status).toBe(200)
}

const run = () => runConformance({ target: local.target, apiKey: local.apiKey, scenarios })

describe('the packs catch every fault of the simulator', () => {
  test('every fault of the catalogue has checks that catch it', () => {
    expect(Object.keys(CAUGHT_BY).sort()).toEqual(Object.keys(FAULT_CATALOGUE).sort())
  })

  test('without faults, every applicable check passes', async () => {
    await setFaults([])
    const result = await run()
    const failed = result.scenarios.flatMap((s) => s.checks.filter((c) => c.status === 'failed'))
    expect(failed.map((c) => `${c.id}: ${c.message}`)).toEqual([])
    expect(result.summary.checks.total).toBeGreaterThan(100)
    expect(result.summary.unexpected).toBe(0)
  })

  for (const [fault, checks] of Object.entries(CAUGHT_BY)) {
    test(`${fault} is caught by ${checks.join(', ')}`, async () => {
      await setFaults([fault])
      try {
        const result = await run()
        const failed = result.scenarios.flatMap((s) =>
          s.checks.filter((c) => c.status === 'failed').map((c) => c.id),
        )
        for (const id of checks) expect(failed, `${id} should fail with ${fault} on`).toContain(id)
        expect(result.summary.unexpected).toBeGreaterThan(0)
        // Each failure names the spec section it enforces.
        for (const scenario of result.scenarios)
          for (const check of scenario.checks) expect(check.spec.length).toBeGreaterThan(0)
      } finally {
        await setFaults([])
      }
    })
  }
})
