import { type LoadedScenario, loadScenarios } from '../scenario/loadScenarios'
import type { Version } from '../scenario/schema'
import { applyBaseline, type Baseline, readBaseline } from './baseline'
import { detectCapabilities } from './detectCapabilities'
import { runScenario } from './runScenario'
import type { ScenarioContext } from './scenarioContext'
import { type Shard, selectShard } from './shard'
import { startLocalTarget } from './startLocalTarget'
import type { RunResult, RunSummary, ScenarioResult } from './types'
import { startWebhookReceiver } from './webhookReceiver'

/** Parameters of {@link runConformance}. */
export type RunConformanceParameters = {
  /** Base URL of the target; without it a simulator is started in this process. */
  target?: string | undefined
  apiKey?: string | undefined
  packs?: string[] | undefined
  version?: Version | undefined
  /** The `scenarios/` folder (default: the repository's). */
  scenariosDir?: string | undefined
  /** Scenarios to run instead of loading them from files. */
  scenarios?: LoadedScenario[] | undefined
  baseline?: string | Baseline | undefined
  shard?: Shard | undefined
  /** Time limit of each scenario, seconds (default 60). */
  timeoutSeconds?: number | undefined
  chainsFile?: string | undefined
  /** Called after each scenario, for progress output. */
  onScenario?: ((result: ScenarioResult, done: number, total: number) => void) | undefined
}

/**
 * Runs scenario packs against a target: detects what it offers, starts the webhook receiver,
 * runs the scenarios (of the shard) in order, and applies the baseline.
 *
 * @example
 * const run = await runConformance({ target: 'http://127.0.0.1:4000', apiKey: 'key', packs: ['versioning'] })
 * process.exitCode = run.summary.unexpected > 0 ? 1 : 0
 */
export async function runConformance(parameters: RunConformanceParameters): Promise<RunResult> {
  const started = performance.now()
  const startedAt = new Date().toISOString()
  const all =
    parameters.scenarios ?? (await loadScenarios({ dir: parameters.scenariosDir, packs: parameters.packs }))
  const scenarios = parameters.shard ? selectShard(all, parameters.shard) : all
  const baseline =
    typeof parameters.baseline === 'string' ? await readBaseline(parameters.baseline) : parameters.baseline

  const local = parameters.target ? undefined : await startLocalTarget({ apiKey: parameters.apiKey })
  const target = parameters.target ?? local!.target
  const apiKey = parameters.apiKey ?? local!.apiKey
  const receiver = await startWebhookReceiver()
  try {
    const caps = await detectCapabilities({ target, apiKey, chainsFile: parameters.chainsFile })
    const context: ScenarioContext = {
      target,
      apiKey,
      caps,
      receiver: caps.webhooks ? receiver : undefined,
      version: parameters.version,
      timeoutMs: (parameters.timeoutSeconds ?? 60) * 1000,
    }
    const results: ScenarioResult[] = []
    for (const scenario of scenarios) {
      const result = await runScenario(scenario, context)
      results.push(result)
      parameters.onScenario?.(result, results.length, scenarios.length)
    }
    const staleBaseline = baseline ? applyBaseline(results, baseline) : []
    return {
      target,
      startedAt,
      shard: parameters.shard,
      capabilities: caps,
      scenarios: results,
      summary: summarize(results, staleBaseline, performance.now() - started),
      staleBaseline,
    }
  } finally {
    await receiver.close()
    await local?.stop()
  }
}

/** Counts of a run; `unexpected` decides the exit code. */
export function summarize(
  results: readonly ScenarioResult[],
  staleBaseline: readonly string[],
  durationMs: number,
): RunSummary {
  const checks = results.flatMap((s) => s.checks)
  const failed = checks.filter((c) => c.status === 'failed')
  const expectedFailures = failed.filter((c) => c.baseline === 'expected-failure').length
  return {
    scenarios: {
      total: results.length,
      passed: results.filter((s) => s.status === 'passed').length,
      failed: results.filter((s) => s.status === 'failed').length,
      notApplicable: results.filter((s) => s.status === 'not-applicable').length,
    },
    checks: {
      total: checks.length,
      passed: checks.length - failed.length,
      failed: failed.length,
      expectedFailures,
      nowPassing: staleBaseline.length,
    },
    unexpected: failed.length - expectedFailures + staleBaseline.length,
    durationMs: Math.round(durationMs),
  }
}
