import { randomInt } from 'node:crypto'
import fc from 'fast-check'
import { addressOf } from '../../lib/nativeSign'
import { detectCapabilities } from '../runner/detectCapabilities'
import { loadProfile } from '../runner/profile'
import type { ScenarioContext } from '../runner/scenarioContext'
import { type Shard, selectShard } from '../runner/shard'
import { type LocalTarget, startLocalTarget } from '../runner/startLocalTarget'
import type { TargetCapabilities } from '../runner/types'
import type { HttpStep } from '../scenario/schema'
import { caseArbitrary } from './cases'
import type { Coverage, Finding } from './findings'
import type { Hints } from './fromSchema'
import { judgeStep } from './judge'
import { namesResource } from './properties'
import { FUZZ_ROUTES, type FuzzRoute, type FuzzVersion } from './routes'
import { runStatefulPhase } from './stateful'
import { runStatelessPhase } from './stateless'
import { type FuzzReport, writeFuzzResults } from './writeFindings'

/** Parameters of {@link runFuzz}. */
export type RunFuzzParameters = {
  /** Base URL of the target; without it a simulator is started in this process. */
  target?: string | undefined
  apiKey?: string | undefined
  /** The run's seed (default: a random one, stated in the report). */
  seed?: number | undefined
  /** Requests to send, about (default 2000 without `durationSeconds`). */
  budget?: number | undefined
  /** Run this long instead of to a budget. */
  durationSeconds?: number | undefined
  /** Where report.json, junit.xml and findings/*.yaml go (default reports/fuzz). */
  out?: string | undefined
  chainsFile?: string | undefined
  /** `spec` (default), `public` or a profile file (as `conformance --profile`). */
  profile?: string | undefined
  /** Only this version. */
  version?: FuzzVersion | undefined
  shard?: Shard | undefined
  /** Sequences of the stateful phase (default: one per 300 requests of the budget, at least 2). */
  statefulRuns?: number | undefined
  /** Stop once this many findings are made (default: go on to the budget). */
  maxFindings?: number | undefined
  /** The phases to run (default both). */
  phases?: readonly ('stateless' | 'stateful')[] | undefined
  /** Called with each generated request of the stateless phase (determinism checks). */
  onRequest?: ((step: HttpStep) => void) | undefined
  /** Called about four times a second, and at the end. */
  onProgress?: ((progress: FuzzProgress) => void) | undefined
}

/** What a progress line shows. */
export type FuzzProgress = {
  phase: 'stateless' | 'stateful'
  requests: number
  findings: number
  perSecond: number
}

/** The outcome of a run: the report written, and the files. */
export type FuzzRun = { report: FuzzReport; files: string[]; findings: Finding[] }

/**
 * Fuzzes a target: detects what it offers (as the conformance runner does), drops the routes
 * it does not serve, runs the stateless phase (generated requests) and the stateful phase
 * (model-based sequences), and writes each finding as a scenario with the reports.
 *
 * @example
 * const run = await runFuzz({ seed: 7, budget: 3000, out: 'reports/fuzz' })
 * process.exitCode = run.findings.length > 0 ? 1 : 0
 */
export async function runFuzz(parameters: RunFuzzParameters): Promise<FuzzRun> {
  const started = Date.now()
  const seed = parameters.seed ?? randomInt(2 ** 31)
  const profile = await loadProfile(parameters.profile)
  let local: LocalTarget | undefined
  if (!parameters.target) local = await startLocalTarget({ apiKey: parameters.apiKey })
  try {
    const target = parameters.target ?? local!.target
    const apiKey = parameters.apiKey ?? local!.apiKey
    const caps = await detectCapabilities({ target, apiKey, chainsFile: parameters.chainsFile, profile })
    const versions = caps.versions.filter((v) => !parameters.version || v === parameters.version)
    const context: ScenarioContext = {
      target,
      apiKey,
      caps,
      timeoutMs: 60_000,
      profile,
      version: parameters.version,
    }
    const hints = hintsOf(caps)
    const deadline = parameters.durationSeconds
      ? started + parameters.durationSeconds * 1000
      : Number.POSITIVE_INFINITY
    const budget = parameters.budget ?? (parameters.durationSeconds ? Number.POSITIVE_INFINITY : 2000)

    const leftOut: FuzzReport['routesLeftOut'] = []
    const inVersion = FUZZ_ROUTES.filter((route) => {
      const served = route.versions.some((v) => versions.includes(v))
      if (!served)
        leftOut.push({ route: route.id, reason: `not in the run's versions (${versions.join(', ')})` })
      return served
    })
    const served = await servedRoutes(inVersion, versions, hints, context, seed, leftOut)
    const routes = parameters.shard ? selectShard(served, parameters.shard) : served

    const findings = new Map<string, Finding>()
    const coverage: Coverage = {}
    let statelessRequests = 0
    let statefulRequests = 0
    let phase: FuzzProgress['phase'] = 'stateless'
    const phaseStarted = Date.now()
    const progress = () =>
      parameters.onProgress?.({
        phase,
        requests: statelessRequests + statefulRequests,
        findings: findings.size,
        perSecond: statelessRequests / Math.max(0.001, (Date.now() - phaseStarted) / 1000),
      })
    const timer = parameters.onProgress ? setInterval(progress, 250) : undefined
    const shardSeed = seed + (parameters.shard ? parameters.shard.index - 1 : 0)
    try {
      const statefulWanted =
        parameters.statefulRuns ??
        (Number.isFinite(budget) ? Math.max(2, Math.floor(budget / 300)) : Number.POSITIVE_INFINITY)
      const statefulRuns = parameters.shard
        ? Math.ceil(statefulWanted / parameters.shard.total)
        : statefulWanted
      const stateful = statefulSpace(caps, versions, routes)
      const phases = parameters.phases ?? ['stateless', 'stateful']
      // The stateful phase's share: about ten requests a sequence, or 30% of the time.
      const sequencesToo = stateful.space !== undefined && phases.includes('stateful')
      const statelessBudget = Number.isFinite(budget)
        ? Math.max(1, budget - (sequencesToo ? statefulRuns * 10 : 0))
        : budget
      const statelessDeadline = Number.isFinite(deadline)
        ? started + (deadline - started) * (sequencesToo ? 0.7 : 1)
        : deadline
      const statelessStarted = Date.now()
      const maxFindings = parameters.maxFindings ?? Number.POSITIVE_INFINITY
      if (routes.length > 0 && phases.includes('stateless'))
        await runStatelessPhase({
          space: { routes, versions, hints },
          context,
          seed: shardSeed,
          budget: statelessBudget,
          deadline: statelessDeadline,
          coverage,
          findings,
          maxFindings,
          onRequest: parameters.onRequest,
          onRequests: (n) => {
            statelessRequests += n
          },
        })
      const statelessMs = Date.now() - statelessStarted
      phase = 'stateful'
      let sequences = 0
      if (stateful.space && phases.includes('stateful') && findings.size < maxFindings)
        sequences = await runStatefulPhase({
          space: stateful.space,
          context,
          seed: shardSeed,
          runs: statefulRuns,
          maxCommands: 10,
          deadline,
          coverage,
          findings,
          maxFindings,
          onRequests: (n) => {
            statefulRequests += n
          },
        })
      progress()
      const all = [...findings.values()]
      const { files, report } = await writeFuzzResults(parameters.out ?? 'reports/fuzz', all, {
        tool: 'intent-devnet fuzz',
        seed,
        target,
        profile: profile.name,
        versions,
        shard: parameters.shard,
        startedAt: new Date(started).toISOString(),
        durationMs: Date.now() - started,
        requests: {
          stateless: statelessRequests,
          stateful: statefulRequests,
          total: statelessRequests + statefulRequests,
          statelessPerSecond: Math.round(statelessRequests / Math.max(0.001, statelessMs / 1000)),
        },
        statefulSequences: sequences,
        routesLeftOut: leftOut,
        statefulLeftOut: stateful.leftOut,
        coverage,
      })
      return { report, files, findings: all }
    } finally {
      if (timer) clearInterval(timer)
    }
  } finally {
    await local?.stop()
  }
}

/** Values the target knows: its funded accounts, tokens and chains. */
function hintsOf(caps: TargetCapabilities): Hints {
  return {
    accounts: caps.accounts.slice(0, 3).map((key) => addressOf(key)),
    tokens: [...new Set(Object.values(caps.tokens))],
    chainIds: caps.chains.map((c) => c.chainId),
    tokensByChain: tokensByChain(caps),
  }
}

/** The target's tokens by chain and symbol, from its `<chainId>.<SYMBOL>` names. */
function tokensByChain(caps: TargetCapabilities): Record<number, Record<string, string>> {
  const out: Record<number, Record<string, string>> = {}
  for (const [name, address] of Object.entries(caps.tokens)) {
    const [chain, symbol] = name.split('.')
    if (!chain || !symbol || !/^\d+$/.test(chain)) continue
    const tokens = out[Number(chain)] ?? {}
    tokens[symbol] = address
    out[Number(chain)] = tokens
  }
  return out
}

/**
 * The routes the target serves: one valid request to each route whose path names no resource
 * of the service (a 404 there may only say "no such intent"); a 404
 * or 501 there means the target has not built it (a vendor's slice of the spec), so it is left
 * out rather than reported as refusing valid input.
 */
async function servedRoutes(
  routes: readonly FuzzRoute[],
  versions: readonly FuzzVersion[],
  hints: Hints,
  context: ScenarioContext,
  seed: number,
  leftOut: FuzzReport['routesLeftOut'],
): Promise<FuzzRoute[]> {
  const verdicts = await Promise.all(
    routes.map(async (route) => {
      if (namesResource(route)) return true
      const version = route.versions.find((v) => versions.includes(v))!
      const [probe] = fc.sample(
        caseArbitrary({ routes: [route], versions: [version], hints }).filter(
          (c) => c.property === 'response-schema',
        ),
        { seed, numRuns: 1 },
      )
      const { status } = await judgeStep(probe!.step, probe!.property, context)
      if (status === 404 || status === 501) {
        leftOut.push({ route: route.id, reason: `not served: a valid request answered ${status}` })
        return false
      }
      return true
    }),
  )
  return routes.filter((_, i) => verdicts[i])
}

/** What the stateful phase can drive: chains with USDC, a funded account, quoting and submitting. */
function statefulSpace(
  caps: TargetCapabilities,
  versions: readonly FuzzVersion[],
  routes: readonly FuzzRoute[],
): { space?: Parameters<typeof runStatefulPhase>[0]['space']; leftOut: string[] } {
  const leftOut: string[] = []
  const has = (id: string) => routes.some((r) => r.id === id)
  const chainIds = caps.chains.map((c) => c.chainId).filter((id) => caps.tokens[`${id}.USDC`] !== undefined)
  if (!has('quote')) leftOut.push('sequences: the target does not quote (POST /intents/route)')
  if (chainIds.length === 0) leftOut.push('sequences: no chain with a USDC token (manifest or --chains file)')
  if (caps.accounts.length === 0) leftOut.push('sequences: no funded account (manifest or --chains file)')
  const submitting = versions.filter((v) => has(v === 'alps' ? 'submitOperation' : 'submitQuoted'))
  if (submitting.length === 0)
    leftOut.push("sequences: the target serves no submit route in the run's versions")
  if (!caps.controlApi) leftOut.push('expiry: no control API to advance the clock')
  leftOut.push('deposits and webhooks: not driven by the stateful phase yet')
  if (!has('quote') || chainIds.length === 0 || caps.accounts.length === 0 || submitting.length === 0)
    return { leftOut }
  return {
    space: { versions: submitting, chainIds, clock: caps.controlApi, withdrawals: has('withdraw') },
    leftOut,
  }
}
