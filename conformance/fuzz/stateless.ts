import fc from 'fast-check'
import type { ScenarioContext } from '../runner/scenarioContext'
import type { HttpStep } from '../scenario/schema'
import type { RequestBudget, RequestKind } from './budget'
import { type CaseSpace, caseArbitrary, type FuzzCase } from './cases'
import { type Coverage, type Finding, findingKey, recordCoverage } from './findings'
import { type Judgement, judgeStep, type Violation } from './judge'

/**
 * The stateless phase: generated requests, sent a batch at a time, each judged on its own. A
 * fast-check property says "no request of the batch breaks a property not found yet"; when one
 * does, fast-check shrinks the batch to the one request (and the smallest values) that still
 * breaks that same property on that same route. Then a new fast-check run (the next seed of the
 * run's) goes on with what is left of the budget.
 */

/** Requests in flight at once (one fast-check input is a batch of up to this many). */
export const BATCH = 16
/** Requests one finding's shrinking may send, at most (within the run's budget). */
export const SHRINK_REQUESTS = 1500

/** Parameters of {@link runStatelessPhase}. */
export type StatelessParameters = {
  /** Every route the target serves: the stream of generated requests is the same in every shard. */
  space: CaseSpace
  /** Whether a route is this shard's (default: every route): only its requests are sent. */
  inShard?: ((route: string) => boolean) | undefined
  context: ScenarioContext
  seed: number
  /**
   * How far down the seed's stream of generated requests to look (the requests of every shard
   * count): the phase's share of the budget. What it sends (its shard's requests, the controls
   * of some, each finding's shrinking) is taken from `budget`.
   */
  share: number
  budget: RequestBudget
  /** Stop by then (ms since the epoch). */
  deadline: number
  coverage: Coverage
  /** Findings so far (of earlier phases); new ones are added. */
  findings: Map<string, Finding>
  /** Stop once there are this many findings (default: go on to the budget). */
  maxFindings?: number | undefined
  /** Called with each request sent while looking (not while shrinking). */
  onRequest?: ((step: HttpStep) => void) | undefined
}

/**
 * Runs the stateless phase; returns how far down the stream it looked.
 *
 * @example
 * await runStatelessPhase({ space, context, seed: 1, share: 2000, budget, deadline, coverage, findings })
 */
export async function runStatelessPhase(parameters: StatelessParameters): Promise<number> {
  const { context, coverage, findings, share, budget, deadline } = parameters
  const inShard = parameters.inShard ?? (() => true)
  const arbitrary = fc.array(caseArbitrary(parameters.space), { minLength: 1, maxLength: BATCH, size: 'max' })
  // Generated requests looked at, whichever shard they are for: the stream's position.
  let position = 0
  const maxFindings = parameters.maxFindings ?? Number.POSITIVE_INFINITY
  const looking = () => position < share && budget.left() > 0 && Date.now() < deadline
  for (let round = 0; looking() && findings.size < maxFindings; round++) {
    const runSeed = (parameters.seed + round * 0x9e3779b1) | 0
    let locked: string | undefined
    let shrinkSent = 0
    let first: FuzzCase[] | undefined
    let last: { fuzzCase: FuzzCase; violation: Violation } | undefined
    const property = fc.asyncProperty(arbitrary, async (cases) => {
      let mine: FuzzCase[]
      if (locked === undefined) {
        if (!looking()) return true
        const within = cases.slice(0, share - position)
        position += within.length
        mine = within.filter((c) => inShard(c.route))
      } else {
        // Shrinking: within its own bound and what is left of the budget.
        if (shrinkSent >= SHRINK_REQUESTS || budget.left() === 0) return true
        mine = cases.filter((c) => inShard(c.route))
      }
      const kind = locked === undefined ? 'looking' : 'shrinking'
      // Taken before anything is sent: a batch never overdraws the budget.
      const sending = mine.filter(() => budget.take(kind))
      if (locked === undefined) for (const c of sending) parameters.onRequest?.(c.step)
      const verdicts = await Promise.all(
        sending.map((c) => judgeCase(c, context, budget, locked === undefined ? 'controls' : 'shrinking')),
      )
      if (locked !== undefined) shrinkSent += verdicts.reduce((n, v) => n + v.sent, 0)
      let failing: { fuzzCase: FuzzCase; violation: Violation } | undefined
      verdicts.forEach(({ status, violation }, i) => {
        const fuzzCase = sending[i]!
        if (locked === undefined)
          recordCoverage(
            coverage,
            fuzzCase.route,
            status,
            violation?.property ?? fuzzCase.property,
            violation !== undefined,
          )
        if (!violation || failing) return
        const key = findingKey(violation.property, fuzzCase.route)
        if (locked === undefined ? !findings.has(key) : key === locked) failing = { fuzzCase, violation }
      })
      if (!failing) return true
      if (locked === undefined) {
        locked = findingKey(failing.violation.property, failing.fuzzCase.route)
        first = sending
      }
      last = failing
      return false
    })
    // Runs enough to look at the rest of the share (a batch holds BATCH / 2 requests on average).
    const remaining = Math.min(1_000_000, Math.max(1, Math.ceil((share - position) / (BATCH / 2))))
    const result = await fc.check(property, {
      seed: runSeed,
      numRuns: remaining,
      endOnFailure: false,
      ...(Number.isFinite(deadline) && { interruptAfterTimeLimit: Math.max(1, deadline - Date.now()) }),
    })
    // No finding: the share, the budget or the time is spent, or fast-check's runs are and another round goes on.
    if (!result.failed || !last || !locked) continue
    const { fuzzCase, violation } = last
    findings.set(locked, {
      key: locked,
      property: violation.property,
      route: fuzzCase.route,
      phase: 'stateless',
      title: fuzzCase.step.name ?? fuzzCase.description,
      message: violation.message,
      seed: parameters.seed,
      runSeed,
      steps: [{ ...fuzzCase.step, expect: violation.expect }],
      requires: { capabilities: [] },
      sizeBeforeShrinking: first?.length ?? 1,
      shrinkingRequests: shrinkSent,
      exchange: violation.exchange,
    })
  }
  return position
}

/**
 * Judges a case; a refusal that does not name the change is checked against the same request
 * without the change: refused for the same reasons, the target never got to the change (an
 * unfunded account, a limit of its own), and the case proves nothing either way.
 */
async function judgeCase(
  fuzzCase: FuzzCase,
  context: ScenarioContext,
  budget: RequestBudget,
  controlKind: RequestKind,
): Promise<Judgement & { sent: number }> {
  const judgement = await judgeStep(fuzzCase.step, fuzzCase.property, context)
  const { status, violation, reasons } = judgement
  if (
    !violation ||
    !fuzzCase.control ||
    violation.property === 'no-5xx' ||
    status === undefined ||
    status >= 500
  )
    return { ...judgement, sent: 1 }
  // No budget left for the control: the refusal is not proven to be about the change.
  if (!budget.take(controlKind)) return { status, reasons, sent: 1 }
  const control = await judgeStep(fuzzCase.control, 'response-schema', context)
  if (
    control.status !== undefined &&
    control.status >= 400 &&
    control.status < 500 &&
    control.reasons === reasons
  )
    return { status, reasons, sent: 2 }
  return { ...judgement, sent: 2 }
}
