import { type LoadedScenario, loadScenarios } from '../scenario/loadScenarios'
import type { Version } from '../scenario/schema'
import { applyBaseline, type Baseline, readBaseline } from './baseline'
import { markOwnChains } from './chainClients'
import { detectCapabilities } from './detectCapabilities'
import { holdTargetAlone, lockApiKey, shareAfterAlone, shareTarget } from './keyLock'
import { applyLearned } from './learnProfile'
import { prepareSchedule } from './prepareSchedule'
import { loadProfile, type Profile } from './profile'
import { packDigest, runMetadata } from './runMetadata'
import { type RunScenarioHooks, runScenario } from './runScenario'
import type { ScenarioContext } from './scenarioContext'
import { aloneIn, runScheduled, scenarioClaims } from './schedule'
import { type Shard, selectShard } from './shard'
import { type LocalTarget, startLocalTarget } from './startLocalTarget'
import { startLocalTargetProcess } from './startLocalTargetProcess'
import type { RunResult, RunSummary, RunTiming, ScenarioResult } from './types'
import { startWebhookReceiver } from './webhookReceiver'

/** Parameters of {@link runConformance}. */
export type RunConformanceParameters = {
  /** Base URL of the target; without it a simulator is started ({@link RunConformanceParameters.localTarget}). */
  target?: string | undefined
  /**
   * Without `target`, where the simulator runs: `in-process` (default), or a child process run
   * by this CLI (`{ bin }`, what `intent-devnet conformance` does): the runner and the
   * simulator then each have a core instead of sharing one event loop (BENCHMARKS.md).
   */
  localTarget?: 'in-process' | { bin: string } | undefined
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
   * such scenario takes a key no running scenario holds. Without them those scenarios are
   * serialized on the run's key.
   */
  apiKeys?: string[] | undefined
  /**
   * `--profile`: the paths the target serves: `spec` (default), `public` (the public service's
   * `POST /quotes`, `POST /intents`, `GET /intents/{id}`), a profile file, or a loaded profile.
   */
  profile?: string | Profile | undefined
  /** `--strict`: SHOULD failures fail the run too (by default only MUST failures do). */
  strict?: boolean | undefined
  /**
   * Most scenarios in flight at once (default 8; 1 runs them one at a time). Those that would
   * interfere never run side by side whatever the number (schedule.ts).
   */
  concurrency?: number | undefined
  /** `--fail-fast`: after the first failed scenario no other starts (those are reported not run). */
  failFast?: boolean | undefined
  /**
   * Called with the result as soon as it is known, while the run's own simulator stops (e.g.
   * writing the reports): runConformance returns once both are done, and throws what it throws.
   */
  whileStopping?: ((run: RunResult) => Promise<void>) | undefined
  /** Called after each scenario, for progress output; `index` is its place in pack order. */
  onScenario?: ((result: ScenarioResult, done: number, total: number, index: number) => void) | undefined
}

/**
 * Runs scenario packs against a target: detects what it offers, starts the webhook receiver,
 * runs the scenarios (of the shard) side by side as far as they cannot interfere (schedule.ts),
 * and applies the baseline. The results keep pack order.
 *
 * @example
 * const run = await runConformance({ target: 'http://127.0.0.1:4000', apiKey: 'key', packs: ['versioning'] })
 * process.exitCode = run.summary.unexpected > 0 ? 1 : 0
 */
export async function runConformance(parameters: RunConformanceParameters): Promise<RunResult> {
  const started = performance.now()
  const startedAt = new Date().toISOString()
  // The simulator (without --target) starts while the packs are read and validated.
  const starting = parameters.target
    ? undefined
    : typeof parameters.localTarget === 'object'
      ? startLocalTargetProcess({ bin: parameters.localTarget.bin, apiKey: parameters.apiKey })
      : startLocalTarget({ apiKey: parameters.apiKey })
  starting?.catch(() => {}) // awaited below; a failed start is not an unhandled rejection meanwhile
  // The webhook receiver listens meanwhile too (it needs nothing of the target).
  const receiving = startWebhookReceiver(webhookReceiverOptions(parameters))
  receiving.catch(() => {})
  const stopStarted = () =>
    Promise.allSettled([
      starting?.then((local) => local.stop()),
      receiving.then((receiver) => receiver.close()),
    ])
  let scenarios: LoadedScenario[]
  let baseline: Baseline | undefined
  let profile: Profile
  try {
    const all =
      parameters.scenarios ?? (await loadScenarios({ dir: parameters.scenariosDir, packs: parameters.packs }))
    scenarios = parameters.shard ? selectShard(all, parameters.shard) : all
    baseline =
      typeof parameters.baseline === 'string' ? await readBaseline(parameters.baseline) : parameters.baseline
    profile =
      typeof parameters.profile === 'object' ? parameters.profile : await loadProfile(parameters.profile)
  } catch (error) {
    await stopStarted()
    throw error
  }

  // While the target starts: not in the tail, between the last scenario and the report.
  const digest = packDigest(scenarios)
  let local: LocalTarget | undefined
  let receiver: Awaited<typeof receiving>
  try {
    ;[local, receiver] = await Promise.all([starting, receiving])
  } catch (error) {
    await stopStarted()
    throw error
  }
  const since = () => Math.round(performance.now() - started)
  const cpuMs = () => {
    const { user, system } = process.cpuUsage()
    return Math.round((user + system) / 1000)
  }
  const targetReadyMs = since()
  const target = parameters.target ?? local!.target
  const apiKey = parameters.apiKey ?? local!.apiKey
  let closing: Promise<PromiseSettledResult<unknown>[]> | undefined
  /** Stops the receiver and the run's own simulator (once): what stopped, or failed to. */
  const close = () => (closing ??= Promise.allSettled([receiver.close(), local?.stop()]))
  let result: RunResult
  try {
    const detecting = detectCapabilities({
      target,
      apiKey,
      chainsFile: parameters.chainsFile,
      profile,
      ownSimulator: local !== undefined,
    })
    // What the schedule derives of each scenario, while the runner mostly waits on the probes.
    prepareSchedule(scenarios).catch(() => {}) // the schedule derives it again and throws then
    const caps = await detecting
    const capabilitiesMs = since()
    // The chains of the run's own simulator, from its manifest (not a --chains file's).
    if (local && !parameters.chainsFile) markOwnChains(caps.chains.map((chain) => chain.rpcUrl))
    let firstScenarioMs: number | undefined
    let firstScenarioCpuMs: number | undefined
    let aloneDoneMs: number | undefined
    if (parameters.webhookUrl || parameters.webhookHost) caps.webhooks = true
    const context: ScenarioContext = {
      target,
      apiKey,
      caps,
      receiver: caps.webhooks || parameters.webhookUrl || parameters.webhookHost ? receiver : undefined,
      version: parameters.version,
      ownSimulator: local !== undefined,
      timeoutMs: (parameters.timeoutSeconds ?? 60) * 1000,
      maxWaitSeconds: parameters.maxWaitSeconds,
      profile: caps.learned ? applyLearned(profile, caps.learned) : profile,
      mappingsApplied: new Set(),
    }
    const results: ScenarioResult[] = new Array(scenarios.length)
    let done = 0
    let firstFailure: string | undefined
    const keys = runKeys(parameters, apiKey, local)
    await runScheduled({
      scenarios,
      concurrency: parameters.concurrency ?? DEFAULT_CONCURRENCY,
      keys: keys.map((k) => k.key),
      // The runner's own simulator reads a refused body to its end before it answers.
      bodiesReadWhole: local !== undefined,
      sharedTarget: parameters.target !== undefined,
      // The devnet manifest's test accounts are the clients' to use, any of them; a chains file
      // may list keys the target itself sends from (a solver's), so there each scenario keeps
      // the accounts it names.
      accounts: parameters.chainsFile ? 0 : caps.accounts.length,
      run: async (index, key, accounts, releaseAlone) => {
        const scenario = scenarios[index]!
        const startMs = since()
        firstScenarioMs ??= startMs
        firstScenarioCpuMs ??= cpuMs()
        if (firstFailure !== undefined) {
          results[index] = notRun(
            scenario,
            `not run: --fail-fast stopped the run when ${firstFailure} failed`,
          )
          parameters.onScenario?.(results[index], ++done, scenarios.length, index)
          return
        }
        // Other runs may judge the same target at once (shards side by side): one that must run
        // alone holds it against theirs too. The runner's own simulator is this run's alone.
        const alone = aloneIn(scenarioClaims(scenario), local !== undefined) !== undefined
        let release = !parameters.target
          ? undefined
          : alone
            ? await holdTargetAlone(target)
            : await shareTarget(target)
        // Done with what makes it run alone: the rest of it may run beside other scenarios (of
        // other runs too, which still wait for it to end before one that runs alone).
        let released = false
        const hooks: RunScenarioHooks = {
          onAloneDone: alone
            ? async () => {
                if (release) release = await shareAfterAlone(target, release)
                released = true
                aloneDoneMs = since()
                releaseAlone()
              }
            : undefined,
        }
        try {
          const own = keys.find((k) => k.key === key)
          // Its account N is the funded account accounts[N] this time (one free of other scenarios).
          const on = accounts
            ? { ...context, caps: { ...caps, accounts: accounts.map((account) => caps.accounts[account]!) } }
            : context
          const ran = !scenarioClaims(scenario).keyState
            ? await runScenario(scenario, on, hooks)
            : own?.label
              ? { ...(await runScenario(scenario, { ...on, apiKey: own.key }, hooks)), keyState: own.label }
              : await runAloneOnKey(scenario, on, hooks)
          if (alone && !released) aloneDoneMs = since()
          const result = { ...ran, startMs }
          results[index] = result
          if (parameters.failFast && result.status === 'failed') firstFailure ??= result.id
          parameters.onScenario?.(result, ++done, scenarios.length, index)
        } finally {
          await release?.()
        }
      },
    })
    // Nothing more goes to the target: the simulator stops (another process, its Anvils with
    // it) while the result is put together and the caller renders it.
    close()
    const timing: RunTiming = {
      targetReadyMs,
      capabilitiesMs,
      firstScenarioMs: firstScenarioMs ?? since(),
      aloneDoneMs,
      lastScenarioMs: since(),
      cpu: { firstScenarioMs: firstScenarioCpuMs ?? cpuMs(), lastScenarioMs: cpuMs() },
    }
    const staleBaseline = baseline ? applyBaseline(results, baseline) : []
    result = {
      target,
      startedAt,
      metadata: runMetadata({
        scenarios,
        results,
        target,
        date: startedAt,
        packDigest: digest,
        version: parameters.version,
        profile: profile.name,
        mappings: [...(caps.learned?.notes ?? []), ...[...context.mappingsApplied!].sort()],
      }),
      shard: parameters.shard,
      capabilities: caps,
      scenarios: results,
      summary: summarize(results, staleBaseline, performance.now() - started, parameters.strict),
      staleBaseline,
      timing,
    }
  } catch (error) {
    await close()
    throw error
  }
  const [closed, rendered] = await Promise.all([
    close(),
    Promise.allSettled([parameters.whileStopping?.(result)]),
  ])
  const failed = [...closed, ...rendered].find((settled) => settled.status === 'rejected')
  if (failed) throw failed.reason
  return result
}

/** The result of a scenario the run did not start. */
function notRun(scenario: LoadedScenario, reason: string): ScenarioResult {
  const { id, title, pack, file, spec } = scenario
  return { id, title, pack, file, spec, status: 'not-applicable', reason, checks: [], durationMs: 0 }
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

/** Most scenarios in flight at once; claims (schedule.ts) keep apart those that would interfere. */
const DEFAULT_CONCURRENCY = 8

/**
 * The keys this run's per-key-state scenarios take: with `--api-keys`, shard I of N takes key I
 * (mod the count) and a run without shards all of them; without them, the simulator the run
 * started (its own, shard or not) gives several; each key is held by one scenario at a time,
 * and labelled for the report. Else the run's own key, held through {@link lockApiKey}.
 */
function runKeys(
  parameters: RunConformanceParameters,
  apiKey: string,
  local: LocalTarget | undefined,
): { key: string; label?: string }[] {
  const given = parameters.apiKeys ?? []
  if (given.length > 0) {
    const label = (slot: number) => `own key ${slot + 1} of ${given.length} (--api-keys)`
    if (!parameters.shard) return given.map((key, slot) => ({ key, label: label(slot) }))
    const slot = (parameters.shard.index - 1) % given.length
    return [{ key: given[slot]!, label: label(slot) }]
  }
  if (!local) return [{ key: apiKey }]
  const keys = [local.apiKey, ...local.apiKeys]
  return keys.map((key, slot) => ({
    key,
    label: `own key ${slot + 1} of ${keys.length} (the runner's simulator)`,
  }))
}

/**
 * Runs a scenario that sets per-key state alone on the run's key: a lock other runs on this
 * machine respect (within the run, the schedule gives the key to one scenario at a time).
 */
async function runAloneOnKey(
  scenario: LoadedScenario,
  context: ScenarioContext,
  hooks: RunScenarioHooks,
): Promise<ScenarioResult> {
  const release = await lockApiKey(context.target, context.apiKey)
  try {
    return { ...(await runScenario(scenario, context, hooks)), keyState: "serialized on the run's key" }
  } finally {
    await release()
  }
}
