import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { runConformance } from '../../conformance/runner/runConformance'
import { setsKeyState } from '../../conformance/runner/schedule'
import {
  LOCAL_TARGET_EXTRA_KEYS,
  type LocalTarget,
  startLocalTarget,
} from '../../conformance/runner/startLocalTarget'
import { loadScenarios } from '../../conformance/scenario/loadScenarios'

let local: LocalTarget
beforeAll(async () => {
  local = await startLocalTarget()
})
afterAll(() => local?.stop())

/** Each scenario's id, status and failed checks over every shard, sorted. */
const verdictsOf = (runs: Awaited<ReturnType<typeof runConformance>>[]) =>
  runs
    .flatMap((run) => run.scenarios)
    .map((s) => [s.id, s.status, s.checks.filter((c) => c.status === 'failed').map((c) => c.id)])
    .sort()

describe('two shards side by side against one simulator and one key', () => {
  test('give the same verdicts as one run: scenarios that set per-key state are serialized on the key', async () => {
    const scenarios = await loadScenarios({ packs: ['deposit-processor', 'webhooks', 'deposits'] })
    const base = { target: local.target, apiKey: local.apiKey, scenarios, timeoutSeconds: 30 }
    const shards = await Promise.all(
      [1, 2].map((index) => runConformance({ ...base, shard: { index, total: 2 } })),
    )
    const verdicts = verdictsOf(shards)
    expect(verdicts).toEqual(scenarios.map((s) => [s.id, 'passed', []]).sort())
    // Each that sets per-key state is serialized on the key; one that only reads it is not.
    const setsState = new Map(scenarios.map((s) => [s.id, setsKeyState(s)]))
    for (const result of shards.flatMap((run) => run.scenarios))
      expect(result.keyState, result.id).toBe(
        setsState.get(result.id) ? "serialized on the run's key" : undefined,
      )
    expect([...setsState.values()].filter(Boolean).length).toBeGreaterThan(2)
    // Both shards really ran at once (each has scenarios that set state on the key).
    for (const run of shards) expect(run.scenarios.length).toBeGreaterThan(0)
  }, 240_000)
})

describe('two shards side by side against one simulator, each on its own key (--api-keys)', () => {
  test('give the same verdicts as one run, and say which key each scenario that sets per-key state took', async () => {
    const scenarios = await loadScenarios({ packs: ['deposit-processor', 'webhooks', 'deposits'] })
    const apiKeys = [local.apiKey, local.apiKeys[0]!]
    const base = { target: local.target, apiKey: local.apiKey, apiKeys, scenarios, timeoutSeconds: 30 }
    const shards = await Promise.all(
      [1, 2].map((index) => runConformance({ ...base, shard: { index, total: 2 } })),
    )
    const verdicts = verdictsOf(shards)
    expect(verdicts).toEqual(scenarios.map((s) => [s.id, 'passed', []]).sort())
    const [first, second] = shards.map(
      (run) => new Set(run.scenarios.flatMap((s) => (s.keyState ? [s.keyState] : []))),
    )
    expect(first).toEqual(new Set(['own key 1 of 2 (--api-keys)']))
    expect(second).toEqual(new Set(['own key 2 of 2 (--api-keys)']))
  }, 240_000)
})

describe('a run that starts its own simulator', () => {
  test('runs scenarios that set per-key state side by side, each on a key of its own', async () => {
    const scenarios = await loadScenarios({ packs: ['deposit-processor', 'webhooks', 'deposits'] })
    const run = await runConformance({ scenarios, timeoutSeconds: 30 })
    expect(run.scenarios.map((s) => [s.id, s.status])).toEqual(scenarios.map((s) => [s.id, 'passed']))
    const states = new Set(run.scenarios.flatMap((s) => (s.keyState ? [s.keyState] : [])))
    const keys = LOCAL_TARGET_EXTRA_KEYS + 1
    expect(
      [...states].every((state) =>
        new RegExp(`^own key \\d of ${keys} \\(the runner's simulator\\)$`).test(state),
      ),
    ).toBe(true)
    expect(states.size).toBeGreaterThan(1)
  }, 240_000)
})
