import { randomInt } from 'node:crypto'
import fc from 'fast-check'
import { isAddress } from 'viem'
import { addresses } from '../../contracts/addresses'
import { toLockTag } from '../../lib/lockTag'
import { addressOf } from '../../lib/nativeSign'
import { detectCapabilities } from '../runner/detectCapabilities'
import { loadProfile } from '../runner/profile'
import type { ScenarioContext } from '../runner/scenarioContext'
import { type Shard, selectShard } from '../runner/shard'
import { type LocalTarget, startLocalTarget } from '../runner/startLocalTarget'
import { startLocalTargetProcess } from '../runner/startLocalTargetProcess'
import type { TargetCapabilities } from '../runner/types'
import { startWebhookReceiver, type WebhookReceiver } from '../runner/webhookReceiver'
import type { HttpStep } from '../scenario/schema'
import { createRequestBudget, type RequestBudget } from './budget'
import { caseArbitrary } from './cases'
import type { Coverage, Finding } from './findings'
import type { Hints } from './fromSchema'
import { judgeStep } from './judge'
import { namesResource } from './properties'
import { FUZZ_ROUTES, type FuzzRoute, type FuzzVersion } from './routes'
import { runStatefulPhase, senderSequences } from './stateful'
import { runStatelessPhase } from './stateless'
import { type FuzzReport, writeFuzzResults } from './writeFindings'

/** Parameters of {@link runFuzz}. */
export type RunFuzzParameters = {
  /** Base URL of the target; without it a simulator is started ({@link RunFuzzParameters.localTarget}). */
  target?: string | undefined
  /**
   * Without `target`, where the simulator runs: `in-process` (default), or a child process
   * (startLocalTargetProcess) run by this CLI (`{ bin }`, what `intent-devnet fuzz` does): the fuzzer
   * and the simulator then each have a core (BENCHMARKS.md, "`intent-devnet fuzz`'s stateless phase").
   */
  localTarget?: 'in-process' | { bin: string } | undefined
  apiKey?: string | undefined
  /** The run's seed (default: a random one, stated in the report). */
  seed?: number | undefined
  /**
   * The most requests to send to the target, all told: probes, generated requests, controls,
   * shrinking, sequences (default 2000 without `durationSeconds`).
   */
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
  /** Called with each sequence of the stateful phase this run (or shard) runs: its number in the run, its commands. */
  onSequence?: ((sequence: number, commands: string) => void) | undefined
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

/**
 * Requests the sequences' share of a budget reserves for each (a quote, its submit, the polls of
 * a settlement, a deposit's setup and reads): measured, 6 to 8 a sequence on average against the
 * simulator (10 to 12 sequences of the fuzz tests), and 5 to 14 a sender's sequence (one or two
 * quotes settled, seed 20261126); what they leave of it is not used.
 */
const REQUESTS_PER_SEQUENCE = 15

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
  if (!parameters.target)
    local =
      typeof parameters.localTarget === 'object'
        ? await startLocalTargetProcess({ bin: parameters.localTarget.bin, apiKey: parameters.apiKey })
        : await startLocalTarget({ apiKey: parameters.apiKey })
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
    const limit = parameters.budget ?? (parameters.durationSeconds ? Number.POSITIVE_INFINITY : 2000)
    const budget = createRequestBudget(limit)

    const leftOut: FuzzReport['routesLeftOut'] = []
    const inVersion = FUZZ_ROUTES.filter((route) => {
      const served = route.versions.some((v) => versions.includes(v))
      if (!served)
        leftOut.push({ route: route.id, reason: `not in the run's versions (${versions.join(', ')})` })
      return served
    })
    const routes = await servedRoutes(inVersion, versions, hints, context, seed, leftOut, budget)
    // Every shard generates the same requests and sequences from the seed, and sends its part:
    // the requests to its routes (the stable hash of `conformance --shard`), every N-th sequence.
    const shard = parameters.shard
    const shardRoutes = new Set((shard ? selectShard(routes, shard) : routes).map((r) => r.id))

    const findings = new Map<string, Finding>()
    const coverage: Coverage = {}
    let phase: FuzzProgress['phase'] = 'stateless'
    const phaseStarted = Date.now()
    const progress = () =>
      parameters.onProgress?.({
        phase,
        requests: budget.counts().total,
        findings: findings.size,
        perSecond: budget.counts().total / Math.max(0.001, (Date.now() - phaseStarted) / 1000),
      })
    const timer = parameters.onProgress ? setInterval(progress, 250) : undefined
    let receiver: WebhookReceiver | undefined
    try {
      const statefulRuns =
        parameters.statefulRuns ??
        (Number.isFinite(limit) ? Math.max(2, Math.floor(limit / 300)) : Number.POSITIVE_INFINITY)
      const stateful = statefulSpace(caps, versions, routes)
      const phases = parameters.phases ?? ['stateless', 'stateful']
      // The sequences' share: about REQUESTS_PER_SEQUENCE requests each, or 30% of the time.
      const sequencesToo = stateful.space !== undefined && phases.includes('stateful')
      const share = Number.isFinite(limit)
        ? Math.max(
            1,
            limit -
              budget.counts().total -
              (sequencesToo ? (statefulRuns + senderSequences(statefulRuns)) * REQUESTS_PER_SEQUENCE : 0),
          )
        : Number.POSITIVE_INFINITY
      const statelessDeadline = Number.isFinite(deadline)
        ? started + (deadline - started) * (sequencesToo ? 0.7 : 1)
        : deadline
      const statelessStarted = Date.now()
      const beforeStateless = budget.counts().total
      const maxFindings = parameters.maxFindings ?? Number.POSITIVE_INFINITY
      if (routes.length > 0 && phases.includes('stateless'))
        await runStatelessPhase({
          space: { routes, versions, hints },
          inShard: (route) => shardRoutes.has(route as FuzzRoute['id']),
          context,
          seed,
          share,
          budget,
          deadline: statelessDeadline,
          coverage,
          findings,
          maxFindings,
          onRequest: parameters.onRequest,
        })
      const statelessMs = Date.now() - statelessStarted
      const statelessSent = budget.counts().total - beforeStateless
      phase = 'stateful'
      let sequences = 0
      if (stateful.space && phases.includes('stateful') && findings.size < maxFindings) {
        if (stateful.space.deposits) receiver = await startWebhookReceiver()
        sequences = await runStatefulPhase({
          space: stateful.space,
          context: { ...context, receiver },
          seed,
          runs: statefulRuns,
          inShard: (sequence) => !shard || sequence % shard.total === shard.index - 1,
          maxCommands: 10,
          deadline,
          budget,
          coverage,
          findings,
          maxFindings,
          onSequence: parameters.onSequence,
        })
      }
      progress()
      const all = [...findings.values()]
      const counts = budget.counts()
      const { files, report } = await writeFuzzResults(parameters.out ?? 'reports/fuzz', all, {
        tool: 'intent-devnet fuzz',
        seed,
        target,
        profile: profile.name,
        versions,
        shard,
        startedAt: new Date(started).toISOString(),
        durationMs: Date.now() - started,
        requests: {
          budget: Number.isFinite(limit) ? limit : null,
          probes: counts.probes,
          stateless: counts.looking + counts.controls,
          shrinking: counts.shrinking,
          stateful: counts.sequences,
          total: counts.total,
          statelessPerSecond: Math.round(statelessSent / Math.max(0.001, statelessMs / 1000)),
        },
        statefulSequences: sequences,
        routesLeftOut: leftOut,
        statefulLeftOut: stateful.leftOut,
        coverage,
      })
      return { report, files, findings: all }
    } finally {
      if (timer) clearInterval(timer)
      await receiver?.close()
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
  budget: RequestBudget,
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
      if (!budget.take('probes')) return true
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
  const deposits = ['depositSetup', 'depositRegister', 'depositList'].every(has)
  if (!deposits)
    leftOut.push('deposits: the target does not serve the deposit processor (setup, register, deposits)')
  else if (chainIds.length < 2) leftOut.push('deposits: fewer than two chains with a USDC token')
  else if (!caps.webhooks)
    leftOut.push(
      "deposits and webhooks: the run's webhook receiver (on loopback) cannot be reached by the target",
    )
  if (!has('quote') || chainIds.length === 0 || caps.accounts.length === 0 || submitting.length === 0)
    return { leftOut }
  // Where the sequence's own sender is funded and read: the manifest's contracts, else the
  // canonical Permit2 and Compact; a lock only under the manifest's allocator (lib/lockTag.ts).
  const contracts = Object.fromEntries(
    chainIds.map((id) => {
      const allocator = caps.contracts[`${id}.allocator`]
      return [
        id,
        {
          permit2: caps.contracts[`${id}.permit2`] ?? addresses.permit2,
          compact: caps.contracts[`${id}.compact`] ?? addresses.compact,
          lockTag: allocator && isAddress(allocator) ? toLockTag({ allocator }) : undefined,
        },
      ]
    }),
  )
  return {
    space: {
      versions: submitting,
      chainIds,
      contracts,
      clock: caps.controlApi,
      withdrawals: has('withdraw'),
      deposits: deposits && chainIds.length >= 2 && caps.webhooks,
    },
    leftOut,
  }
}
