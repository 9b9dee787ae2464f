import { mkdtemp, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { runConformance } from '../../conformance/runner/runConformance'
import { type LocalTarget, startLocalTarget } from '../../conformance/runner/startLocalTarget'
import { loadScenarios } from '../../conformance/scenario/loadScenarios'
import { chainsFileOf } from './chainsFileOf'
import { type HideDevnetProxy, startHideDevnetProxy } from './hideDevnetProxy'

let local: LocalTarget
let proxy: HideDevnetProxy
let chainsFile: string

beforeAll(async () => {
  local = await startLocalTarget()
  proxy = await startHideDevnetProxy(local.target)
  chainsFile = join(await mkdtemp(join(tmpdir(), 'hidden-devnet-')), 'chains.json')
  // RPC URLs and funded keys only, as a vendor writes it: the Compact, Permit2 and the tokens
  // come from the canonical defaults (where the devnet places them too).
  const { chains, accounts } = (await chainsFileOf(local.target, local.apiKey)) as Record<string, unknown>
  await writeFile(chainsFile, JSON.stringify({ chains, accounts }))
})
afterAll(async () => {
  await proxy?.close()
  await local?.stop()
})

describe('the simulator behind a proxy that answers 404 to /_devnet/, run with --chains of RPC URLs and keys only', () => {
  test('every scenario not needing faults, prices or an instant clock is applicable and passes; each not applicable names its missing input', async () => {
    // --max-wait 0: the simulator's quote lifetime is not waited out here, so quote expiry needs an instant clock.
    const run = await runConformance({
      target: proxy.url,
      apiKey: local.apiKey,
      chainsFile,
      maxWaitSeconds: 0,
    })
    const failed = run.scenarios.flatMap((s) =>
      s.checks.filter((c) => c.status === 'failed').map((c) => `${c.id}: ${c.message ?? ''}`),
    )
    expect(failed).toEqual([])
    // The scenarios that judge the devnet's own documented behaviour (`requires: devnet`: the
    // explorer, /docs, the webhook outbox, pricing at its defaults, …) apply to an intent-devnet only.
    const devnetOnly = (await loadScenarios())
      .filter((s) => s.requires.capabilities.includes('devnet'))
      .map((s) => s.id)
    const notApplicable = run.scenarios.filter((s) => s.status === 'not-applicable')
    expect(notApplicable.filter((s) => devnetOnly.includes(s.id)).map((s) => `${s.id}: ${s.reason}`)).toEqual(
      devnetOnly.map((id) => `${id}: the target is not an intent-devnet (no /_devnet/ endpoints)`),
    )
    expect(run.summary.scenarios.passed).toBe(run.summary.scenarios.total - 3 - devnetOnly.length)
    expect(
      notApplicable.filter((s) => !devnetOnly.includes(s.id)).map((s) => `${s.id}: ${s.reason}`),
    ).toEqual([
      'deposits.bridge-5-default: the target has no devnet control API (GET /_devnet/manifest)',
      'deposits.bridge-5: the target has no devnet control API (GET /_devnet/manifest)',
      expect.stringMatching(
        /^quotes\.blanc-quote-expiry: no control API to advance the clock, and \d+s is longer than the 0s the run may wait \(--max-wait\)$/,
      ),
    ])
  }, 300_000)
})
