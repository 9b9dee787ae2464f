import { summarize } from '../../runner/runConformance'
import type { RunResult, ScenarioResult, TargetCapabilities } from '../../runner/types'

/**
 * A run's result around `scenarios`, as the reporters' tests feed them: a target on
 * 127.0.0.1:1 with both versions, webhooks and faults, no chains; `capabilities` overrides
 * what the run found, `durationMs` is the run's length.
 *
 * @example
 * renderJson(runResultOf([scenario], { controlApi: true }, 3))
 */
export function runResultOf(
  scenarios: ScenarioResult[],
  capabilities: Partial<TargetCapabilities> = {},
  durationMs = 0,
): RunResult {
  return {
    target: 'http://127.0.0.1:1',
    startedAt: '2026-01-01T00:00:00.000Z',
    metadata: {
      runnerVersion: '0.1.0',
      packDigest: 'sha256:00',
      target: 'http://127.0.0.1:1',
      profile: 'spec',
      versions: ['alps', 'blanc'],
      date: '2026-01-01T00:00:00.000Z',
    },
    capabilities: {
      target: 'http://127.0.0.1:1',
      controlApi: false,
      faults: true,
      chains: [],
      accounts: ['0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d'],
      versions: ['alps', 'blanc'],
      webhooks: true,
      contracts: {},
      tokens: {},
      implemented: {},
      ...capabilities,
    },
    scenarios,
    summary: summarize(scenarios, [], durationMs),
    staleBaseline: [],
  }
}
