import type { LoadedScenario } from '../scenario/loadScenarios'
import type { Step } from '../scenario/schema'
import { type AccountAssignment, type AccountHold, assignAccounts } from './assignAccounts'
import { changedBy, EVERY_PART, observedParts, type StatePart } from './observedState'
import { refusedByRequest } from './refusedRequest'
import { estimatedCost } from './scenarioCost'

/**
 * What a scenario holds while it runs, so that scenarios run side by side cannot change each
 * other's verdicts. Derived from its steps ({@link scenarioClaims}).
 */
export type ScenarioClaims = {
  /** Why it runs with no other scenario beside it (it changes what every scenario sees), or undefined. */
  alone: string | undefined
  /** The parts of the target's state its steps that make it alone change ({@link changedBy}); none when it need not run alone. */
  changes: readonly StatePart[]
  /** The parts of the target's state its verdict may depend on ({@link observedParts}). */
  observes: readonly StatePart[]
  /**
   * It runs alone only for an oversized body, whose verdict depends on the target answering
   * before the body is sent: not when the target reads such a body to its end before it
   * answers (the runner's own simulator: simulator/http/refusedBody.ts), see {@link aloneIn}.
   */
  bodyOnly: boolean
  /** It sets state of its API key (the deposit processor's configuration): one such scenario per key at a time. */
  keyState: boolean
  /** Funded accounts (by index) it acts as beyond funding others (signs as, quotes and settles for, moves funds of): one scenario at a time each. */
  actsAs: number[]
  /** Funded accounts it only names in HTTP requests (a quote, a withdrawal to sign): shared with other readers, never beside one acting as it. */
  reads: number[]
  /** Every funded account it names (acted as, read, or only sent from: a plain transfer). */
  uses: number[]
}

/**
 * The claims of a scenario: alone when it advances the clock, injects faults, changes the
 * control API's state (any `/_devnet/` request but a GET: prices, snapshots, …) or sends an
 * oversized body (its verdict depends on the target answering before the body is sent);
 * per-key state when it posts `/deposit-processor/setup`; the funded accounts it acts as or
 * reads. A plain transfer from a funded account (funding a fresh one) or a contract deployment
 * claims nothing: the runner sends one transaction per account at a time (chainActions).
 * A step the target must refuse for what it is ({@link refusedByRequest}: a `/_devnet/` POST
 * without the key, a setup with a malformed body) claims nothing either: it changes nothing
 * (a target that wrongly accepts it fails that step, so the run fails anyway). A scenario of
 * such steps only, naming no funded account, may run beside one that must run alone.
 */
export function scenarioClaims(scenario: LoadedScenario): ScenarioClaims {
  // Asked for by the schedule, the run and the not-applicable check: derived once per scenario.
  let claims = claimsOf.get(scenario)
  if (!claims) {
    claims = deriveClaims(scenario)
    claimsOf.set(scenario, claims)
  }
  return claims
}

/** Why a scenario that injects faults runs alone: nothing at all runs beside it (they change every answer). */
const INJECTS_FAULTS = 'it injects faults'

/** {@link scenarioClaims} by scenario (a loaded scenario is never changed). */
const claimsOf = new WeakMap<LoadedScenario, ScenarioClaims>()

function deriveClaims(scenario: LoadedScenario): ScenarioClaims {
  const steps: Step[] = [...scenario.steps, ...scenario.cleanup]
  const faults = scenario.requires.capabilities.includes('faults')
  const reasons = steps.flatMap((step) => stepAloneReason(step, scenario) ?? [])
  const changes = new Set(
    steps.flatMap((step) => (stepAloneReason(step, scenario) === undefined ? [] : changedBy(step))),
  )
  // Faults keep anything from running beside it, whatever else it does first; an oversized
  // body says least ({@link aloneIn}).
  const alone =
    faults || reasons.includes(INJECTS_FAULTS)
      ? INJECTS_FAULTS
      : (reasons.find((reason) => reason !== OVERSIZED_BODY) ?? reasons[0])
  const bodyOnly = !faults && reasons.length > 0 && reasons.every((reason) => reason === OVERSIZED_BODY)
  const named = new Set<number>()
  const acts = new Set<number>()
  const sends = new Set<number>()
  let httpOnly = true
  const texts = steps.map((step) => JSON.stringify(step))
  for (const [index, step] of steps.entries()) {
    for (const match of texts[index]!.matchAll(/\$\{accounts\.(\d+)\./g)) named.add(Number(match[1]))
    if ('clock' in step || 'fault' in step || 'http' in step || 'wait' in step || 'patch' in step) {
      // None signs as an account or sends from one.
    } else {
      httpOnly = false
      if ('sign' in step && typeof step.sign.account === 'number') acts.add(step.sign.account)
      if ('signIntentOp' in step && typeof step.signIntentOp.account === 'number')
        acts.add(step.signIntentOp.account)
      if ('chain' in step && 'from' in step.chain && typeof step.chain.from === 'number')
        if (!['transfer', 'deploy'].includes(step.chain.action))
          // A transfer or a deployment moves nothing of the account's but gas: it only sends.
          acts.add(step.chain.from)
        else sends.add(step.chain.from)
    }
  }
  for (const index of named) if (!httpOnly) acts.add(index)
  return {
    alone,
    changes: alone === INJECTS_FAULTS ? EVERY_PART : [...changes].sort(),
    observes: observedParts(steps, texts),
    bodyOnly,
    keyState: setsKeyState(scenario),
    actsAs: [...acts].sort(),
    reads: httpOnly ? [...named].filter((index) => !acts.has(index)).sort() : [],
    uses: [...new Set([...named, ...acts, ...sends])].sort((a, b) => a - b),
  }
}

/**
 * Whether a scenario may run beside one that must run alone (one that injects faults
 * excepted): its every step is a request the target must refuse for what it is
 * ({@link refusedByRequest}), so no price, clock or other scenario's state can change its
 * verdict, and it changes nothing; it names no funded account, and runs alone for nothing but
 * an oversized body, if at all. Judged when the schedule first asks (while the first scenario
 * that must run alone waits on the target: the request schemas' first parse costs ~10 ms).
 */
export function mayRunBesideAlone(scenario: LoadedScenario): boolean {
  let beside = besideOf.get(scenario)
  if (beside === undefined) {
    const claims = scenarioClaims(scenario)
    beside =
      (claims.alone === undefined || claims.bodyOnly) &&
      claims.uses.length === 0 &&
      !scenario.requires.capabilities.includes('faults') &&
      [...scenario.steps, ...scenario.cleanup].every(
        (step) => 'http' in step && refusedByRequest(step, scenario) !== undefined,
      )
    besideOf.set(scenario, beside)
  }
  return beside
}

/** {@link mayRunBesideAlone} by scenario. */
const besideOf = new WeakMap<LoadedScenario, boolean>()

/**
 * Why a step makes its scenario run alone, or undefined: it advances the clock, injects faults,
 * changes the control API's state (any `/_devnet/` request but a GET, unless the target must
 * refuse it: sent without the key) or sends an oversized body.
 */
function stepAloneReason(step: Step, scenario: LoadedScenario): string | undefined {
  if ('clock' in step) return 'it advances the clock'
  if ('fault' in step) return INJECTS_FAULTS
  if (!('http' in step)) return undefined
  if (
    step.http.path.startsWith('/_devnet/') &&
    step.http.method !== 'GET' &&
    refusedByRequest(step, scenario) === undefined
  )
    return `it changes the target's state (${step.http.method} ${step.http.path})`
  if (step.http.oversizeBytes !== undefined) return OVERSIZED_BODY
  return undefined
}

const OVERSIZED_BODY = 'it sends an oversized body (the answer must come before the body is sent)'

/**
 * Why a scenario runs alone in a run, or undefined: its claims' `alone`, except one that runs
 * alone only for an oversized body ({@link ScenarioClaims.bodyOnly}) when the target reads
 * such a body to its end before it answers (`bodiesReadWhole`: the runner's own simulator,
 * to which the runner sends it at once, httpStep.ts): its answer then comes after the body
 * whatever the load, so running beside others changes nothing of its verdict.
 *
 * @example
 * aloneIn(scenarioClaims(oversized), true) // undefined
 */
export function aloneIn(claims: ScenarioClaims, bodiesReadWhole = false): string | undefined {
  return bodiesReadWhole && claims.bodyOnly ? undefined : claims.alone
}

/**
 * The number of steps (steps, then cleanup) of a scenario that must run alone up to and
 * including its last step that makes it so: once those are done (or skipped), what is left of
 * it may run beside other scenarios ({@link runScheduled}'s release). Undefined when no step
 * but the whole scenario makes it alone (it needs the `faults` capability), or it need not run
 * alone: it is released only when it ends.
 *
 * @example
 * aloneSteps(outboxFailed) // 4: the clock step is its 4th; the 600 ms wait after it runs beside others
 */
export function aloneSteps(scenario: LoadedScenario): number | undefined {
  if (scenario.requires.capabilities.includes('faults')) return undefined
  const steps: Step[] = [...scenario.steps, ...scenario.cleanup]
  let count: number | undefined
  for (const [index, step] of steps.entries())
    if (stepAloneReason(step, scenario) !== undefined) count = index + 1
  return count
}

/**
 * Whether a scenario sets state that belongs to its API key (the deposit processor's
 * configuration): it posts `/deposit-processor/setup`, other than a request the target must
 * refuse for what it is ({@link refusedByRequest}: a malformed body).
 */
export function setsKeyState(scenario: LoadedScenario): boolean {
  return [...scenario.steps, ...scenario.cleanup].some(
    (step) =>
      'http' in step &&
      step.http.path.startsWith('/deposit-processor/setup') &&
      step.http.method === 'POST' &&
      refusedByRequest(step, scenario) === undefined,
  )
}

/** Parameters of {@link runScheduled}. */
export type RunScheduledParameters = {
  scenarios: readonly LoadedScenario[]
  /** Most scenarios in flight at once (at least 1; 1 runs them one at a time). */
  concurrency: number
  /** The target reads a refused body to its end before it answers (see {@link aloneIn}). */
  bodiesReadWhole?: boolean | undefined
  /**
   * Other runs may judge the target too (`--target`): one that must run alone holds it against
   * theirs (keyLock.ts), so others beside it would only wait, then hold the next one back: only
   * short ones that observe nothing (refused requests) run beside it, not all that may.
   */
  sharedTarget?: boolean | undefined
  /** Keys per-key-state scenarios take, one scenario per key at a time (at least one). */
  keys: readonly string[]
  /**
   * How many funded accounts the target gives (default 0): a scenario's accounts are then its
   * own indexes into them, taken where free ({@link assignAccounts}); without, each is the one
   * it names.
   */
  accounts?: number | undefined
  /**
   * Runs scenario `index`; `key` is the key it holds when it sets per-key state, `accounts` the
   * funded account (by index) each of its indexes stands for this time, when not the one it names.
   * A scenario that runs alone calls `release` once its steps that make it so ({@link aloneSteps})
   * are done: other scenarios may start beside the rest of it (it keeps its key and accounts, and
   * no other scenario that runs alone starts before it ends). Others may ignore it.
   */
  run: (
    index: number,
    key: string | undefined,
    accounts: readonly number[] | undefined,
    release: () => void,
  ) => Promise<void>
}

/**
 * Most scenarios that may run beside one that must run alone in flight while it runs or waits
 * to: they take the core it leaves idle (it mostly waits on the target), not its share of the
 * runner's event loop (BENCHMARKS.md, issue 29).
 */
export const BESIDE_ALONE = 2

/**
 * Runs scenarios side by side as their claims allow: first those that must run alone, one at a
 * time, those whose change more others observe first, then the one with the longest rest after
 * its last step that makes it alone last (others start beside that rest once it is released);
 * then the others, longest first, up to `concurrency` at once, each per-key-state scenario on
 * a key no other running scenario holds and each funded account acted as by one scenario at a
 * time (readers share it). While one that must run alone runs or waits to, up to
 * {@link BESIDE_ALONE} others run beside it that observe no part of the target's state it or
 * any still to run alone changes ({@link observedParts}: the prices beside one that moves
 * them, requests the target must refuse beside any), none beside one that injects faults. A
 * released scenario keeps its key and accounts, and one that must run alone waits for the end
 * of every running one that observes what it changes (a clock step would move under its rest).
 * Funded accounts are interchangeable (the target funds each alike): a scenario that names
 * account 0 while another acts as it takes another free one instead of waiting ({@link assignAccounts}).
 *
 * @example
 * await runScheduled({ scenarios, concurrency: 8, keys: [apiKey], accounts: 10, run: (index, key, accounts, release) => … })
 */
export async function runScheduled(parameters: RunScheduledParameters): Promise<void> {
  const { scenarios, keys, run } = parameters
  const concurrency = Math.max(1, parameters.concurrency)
  const funded = parameters.accounts ?? 0
  const claims = scenarios.map(scenarioClaims)
  const indexes = scenarios.map((_, index) => index)
  const costs = scenarios.map((scenario) => estimatedCost(scenario))
  // The rest of each that may run beside others once released: the longest last, else pack order.
  const tails = scenarios.map((scenario) => {
    const until = aloneSteps(scenario)
    return until === undefined ? 0 : estimatedCost(scenario, until)
  })
  const isAlone = (index: number) => aloneIn(claims[index]!, parameters.bodiesReadWhole) !== undefined
  /** One that must run alone with nothing at all beside it: it injects faults (they change every answer). */
  const empty = (index: number) => claims[index]!.alone === INJECTS_FAULTS
  /** Whether scenario `index` may observe one of `parts` (one of refused requests only: none). */
  const observes = (index: number, parts: readonly StatePart[]) =>
    parts.length > 0 && !mayBeside(index) && parts.some((part) => claims[index]!.observes.includes(part))
  const others = indexes.filter((index) => !isAlone(index)).sort((a, b) => costs[b]! - costs[a]! || a - b)
  // How many others may observe what each that must run alone changes (by their steps alone:
  // mayBeside is judged later): the one holding most back runs first.
  const holds = indexes.map((index) =>
    isAlone(index)
      ? others.filter((other) =>
          claims[other]!.observes.some((part) => claims[index]!.changes.includes(part)),
        ).length
      : 0,
  )
  const alone = indexes
    .filter(isAlone)
    .sort((a, b) => holds[b]! - holds[a]! || tails[a]! - tails[b]! || a - b)
  const pending = [...alone, ...others]
  const running = new Set<number>()
  /** Running scenarios that must run alone and still do what makes them so. */
  const exclusive = new Set<number>()
  const freeKeys = [...keys]
  const heldKey = new Map<number, string>()
  /** The accounts each running scenario holds, as its claims say, mapped to the funded ones. */
  const heldAccounts = new Map<number, AccountHold>()
  const mayBeside = (index: number) => mayRunBesideAlone(scenarios[index]!)
  /** Whether {@link mayRunBesideAlone} is judged: once the first scenarios started (prepareSchedule.ts). */
  let judged = false
  /** Whether scenario `a`, changing `changes`, and running scenario `b` may run side by side. */
  const apart = (a: number, changes: readonly StatePart[], b: number) => {
    const its = exclusive.has(b) ? claims[b]!.changes : []
    return !changes.some((part) => its.includes(part)) && !observes(b, changes) && !observes(a, its)
  }
  const beside = () => [...running].filter((index) => !isAlone(index)).length

  /** The accounts scenario `index` would take now, or undefined when it has to wait. */
  const canStart = (index: number): AccountAssignment | undefined => {
    const claim = claims[index]!
    if (claim.keyState && freeKeys.length === 0) return undefined
    if (running.size >= concurrency) return undefined
    if ([...exclusive].some(empty)) return undefined
    if (isAlone(index)) {
      if (
        empty(index) ? running.size > 0 : ![...running].every((other) => apart(index, claim.changes, other))
      )
        return undefined
      return assignAccounts(claim, funded, [...heldAccounts.values()])
    }
    // While one that must run alone runs or waits to: a few that observe none of their changes.
    const waiting = pending.filter(isAlone)
    if (exclusive.size > 0 || waiting.length > 0) {
      if (!judged || (parameters.sharedTarget && !mayBeside(index))) return undefined
      if (![...exclusive].every((other) => apart(index, [], other))) return undefined
      if (waiting.some((next) => observes(index, claims[next]!.changes))) return undefined
      // Not while the next one, which needs the target to itself, only waits for those beside.
      if (waiting[0] !== undefined && empty(waiting[0]) && ![...running].some(isAlone)) return undefined
      if (beside() >= BESIDE_ALONE) return undefined
    }
    return assignAccounts(claim, funded, [...heldAccounts.values()])
  }

  await new Promise<void>((resolve, reject) => {
    let failed = false
    const dispatch = () => {
      if (failed) return
      if (pending.length === 0 && running.size === 0) return resolve()
      for (let i = 0; i < pending.length; i++) {
        const index = pending[i]!
        const assignment = canStart(index)
        if (!assignment) {
          // One that must run alone waits for the others to finish; no other that must run
          // alone passes it meanwhile (those that may run beside it may: canStart).
          if (isAlone(index)) while (i + 1 < pending.length && isAlone(pending[i + 1]!)) i++
          continue
        }
        pending.splice(i--, 1)
        running.add(index)
        if (isAlone(index)) exclusive.add(index)
        heldAccounts.set(index, assignment.hold)
        const key = claims[index]!.keyState ? freeKeys.shift() : undefined
        if (key !== undefined) heldKey.set(index, key)
        const release = () => {
          if (exclusive.delete(index)) dispatch()
        }
        run(index, key, assignment.accounts, release).then(
          () => {
            exclusive.delete(index)
            running.delete(index)
            heldAccounts.delete(index)
            const held = heldKey.get(index)
            if (held !== undefined) {
              heldKey.delete(index)
              freeKeys.push(held)
            }
            dispatch()
          },
          (error) => {
            failed = true
            reject(error)
          },
        )
      }
    }
    dispatch()
    setImmediate(() => {
      if (alone.length > 0) for (const index of others) mayBeside(index)
      judged = true
      dispatch()
    })
  })
}
