import { type LoadedScenario, loadScenarios } from '../scenario/loadScenarios'
import type { Version } from '../scenario/schema'
import { applyBaseline, type Baseline, readBaseline } from './baseline'
import { detectCapabilities } from './detectCapabilities'
import { lockApiKey } from './keyLock'
import { loadProfile, type Profile } from './profile'
import { runMetadata } from './runMetadata'
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
  /** Longest real wait a clock step may make without the control API, seconds (`--max-wait`; default: each step's `maxWaitSeconds`). */
  maxWaitSeconds?: number | undefined
  /** Base URL the target reaches the webhook receiver at (`--webhook-url`); the receiver listens on all interfaces. */
  webhookUrl?: string | undefined
  /** Host name the target reaches this machine by (`--webhook-host`); the receiver listens on all interfaces. */
  webhookHost?: string | undefined
  /**
   * `--api-keys K1,K2,…`: keys of the same target for scenarios that set per-key state (the
   * deposit processor's configuration); shard I of N takes key I (mod the count), else each
   * such scenario takes the next key. Without them those scenarios are serialized on the key.
   */
  apiKeys?: string[] | undefined
  /**
   * `--profile`: the paths the target serves: `spec` (default), `public` (the public service's
   * `POST /quotes`, `POST /intents`, `GET /intents/{id}`), a profile file, or a loaded profile.
   */
  profile?: string | Profile | undefined
  /** `--strict`: SHOULD failures fail the run too (by default only MUST failures do). */
  strict?: boolean | undefined
  /** How many HTTP-only scenarios run side by side (default 4; 1 runs every scenario in order). */
  concurrency?: number | undefined
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
  const profile =
    typeof parameters.profile === 'object' ? parameters.profile : await loadProfile(parameters.profile)

  const local = parameters.target ? undefined : await startLocalTarget({ apiKey: parameters.apiKey })
  const target = parameters.target ?? local!.target
  const apiKey = parameters.apiKey ?? local!.apiKey
  const receiver = await startWebhookReceiver(webhookReceiverOptions(parameters))
  try {
    const caps = await detectCapabilities({ target, apiKey, chainsFile: parameters.chainsFile, profile })
    if (parameters.webhookUrl || parameters.webhookHost) caps.webhooks = true
    const context: ScenarioContext = {
      target,
      apiKey,
      caps,
      receiver: caps.webhooks || parameters.webhookUrl || parameters.webhookHost ? receiver : undefined,
      version: parameters.version,
      timeoutMs: (parameters.timeoutSeconds ?? 60) * 1000,
      maxWaitSeconds: parameters.maxWaitSeconds,
      profile,
    }
    const results: ScenarioResult[] = new Array(scenarios.length)
    let done = 0
    const runAt = async (index: number) => {
      const result = await runWithKey(scenarios[index]!, context, parameters, index)
      results[index] = result
      parameters.onScenario?.(result, ++done, scenarios.length)
    }
    // Scenarios that only send HTTP requests to the service share nothing, and run side by side;
    // the others (chains, clock, faults, prices, webhooks, per-key state) run one at a time after them.
    const indexes = scenarios.map((_, index) => index)
    const shareable = indexes.filter((index) => isShareable(scenarios[index]!))
    const concurrency = Math.max(1, parameters.concurrency ?? DEFAULT_CONCURRENCY)
    let next = 0
    await Promise.all(
      Array.from({ length: Math.min(concurrency, shareable.length) }, async () => {
        while (next < shareable.length) await runAt(shareable[next++]!)
      }),
    )
    for (const index of indexes) if (!shareable.includes(index)) await runAt(index)
    const staleBaseline = baseline ? applyBaseline(results, baseline) : []
    return {
      target,
      startedAt,
      metadata: runMetadata({
        scenarios,
        results,
        target,
        date: startedAt,
        version: parameters.version,
        profile: profile.name,
      }),
      shard: parameters.shard,
      capabilities: caps,
      scenarios: results,
      summary: summarize(results, staleBaseline, performance.now() - started, parameters.strict),
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
  strict = false,
): RunSummary {
  const checks = results.flatMap((s) => s.checks)
  const failed = checks.filter((c) => c.status === 'failed')
  const expectedFailures = failed.filter((c) => c.baseline === 'expected-failure').length
  const graded = (level: 'MUST' | 'SHOULD') => {
    const of = checks.filter((c) => (c.level ?? 'MUST') === level)
    const failing = of.filter((c) => c.status === 'failed').length
    return { passed: of.length - failing, failed: failing }
  }
  const counted = failed.filter(
    (c) => c.baseline !== 'expected-failure' && (strict || (c.level ?? 'MUST') === 'MUST'),
  ).length
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
    levels: { must: graded('MUST'), should: graded('SHOULD') },
    strict,
    unexpected: counted + staleBaseline.length,
    durationMs: Math.round(durationMs),
  }
}

/** Where the webhook receiver listens, and the URL the target is told: loopback unless `--webhook-url` or `--webhook-host` says otherwise. */
function webhookReceiverOptions(parameters: RunConformanceParameters) {
  if (parameters.webhookUrl) {
    const port = new URL(parameters.webhookUrl).port
    return { host: '0.0.0.0', port: port ? Number(port) : 0, publicUrl: parameters.webhookUrl }
  }
  if (parameters.webhookHost) return { host: '0.0.0.0', advertisedHost: parameters.webhookHost }
  return {}
}

const DEFAULT_CONCURRENCY = 4

/**
 * Whether a scenario may run beside others: it only sends HTTP requests to the service's own
 * endpoints (no chain, clock, fault, webhook or signing step, no `/_devnet/` path, no per-key state).
 */
function isShareable(scenario: LoadedScenario): boolean {
  if (setsKeyState(scenario)) return false
  if (
    scenario.requires.capabilities.some((c) =>
      ['devnet', 'control-api', 'faults', 'chains', 'webhooks'].includes(c),
    )
  )
    return false
  // An oversized body is timing-sensitive (the target may answer and close before it is sent).
  return [...scenario.steps, ...scenario.cleanup].every(
    (step) =>
      'http' in step && !step.http.path.startsWith('/_devnet/') && step.http.oversizeBytes === undefined,
  )
}

/** Whether a scenario sets state that belongs to its API key (the deposit processor's configuration). */
function setsKeyState(scenario: LoadedScenario): boolean {
  return [...scenario.steps, ...scenario.cleanup].some(
    (step) =>
      'http' in step && step.http.path.startsWith('/deposit-processor/setup') && step.http.method === 'POST',
  )
}

/**
 * Runs a scenario that sets per-key state on its own key (`--api-keys`) or alone on the run's
 * key (a lock other runs on this machine respect); the result says which.
 */
async function runWithKey(
  scenario: LoadedScenario,
  context: ScenarioContext,
  parameters: RunConformanceParameters,
  index: number,
): Promise<ScenarioResult> {
  if (!setsKeyState(scenario)) return runScenario(scenario, context)
  const keys = parameters.apiKeys ?? []
  if (keys.length > 0) {
    const slot = parameters.shard ? parameters.shard.index - 1 : index
    const key = keys[slot % keys.length]!
    const result = await runScenario(scenario, { ...context, apiKey: key })
    return { ...result, keyState: `own key ${(slot % keys.length) + 1} of ${keys.length} (--api-keys)` }
  }
  const release = await lockApiKey(context.target, context.apiKey)
  try {
    return { ...(await runScenario(scenario, context)), keyState: "serialized on the run's key" }
  } finally {
    await release()
  }
}
