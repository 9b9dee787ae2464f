import fc from 'fast-check'
import type { ScenarioContext } from '../runner/scenarioContext'
import type { HttpStep } from '../scenario/schema'
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
/** Requests a finding's shrinking may send beyond the budget, at most. */
const SHRINK_REQUESTS = 1500

/** Parameters of {@link runStatelessPhase}. */
export type StatelessParameters = {
  space: CaseSpace
  context: ScenarioContext
  seed: number
  /** Requests to send, at most (shrinking aside). */
  budget: number
  /** Stop by then (ms since the epoch). */
  deadline: number
  coverage: Coverage
  /** Findings so far (of earlier phases); new ones are added. */
  findings: Map<string, Finding>
  /** Stop once there are this many findings (default: go on to the budget). */
  maxFindings?: number | undefined
  onRequests?: ((sent: number) => void) | undefined
  /** Called with each request sent while looking (not while shrinking). */
  onRequest?: ((step: HttpStep) => void) | undefined
}

/**
 * Runs the stateless phase; returns how many requests it sent.
 *
 * @example
 * const sent = await runStatelessPhase({ space, context, seed: 1, budget: 2000, deadline, coverage, findings })
 */
export async function runStatelessPhase(parameters: StatelessParameters): Promise<number> {
  const { context, coverage, findings, budget, deadline } = parameters
  const arbitrary = fc.array(caseArbitrary(parameters.space), { minLength: 1, maxLength: BATCH, size: 'max' })
  let sent = 0
  const maxFindings = parameters.maxFindings ?? Number.POSITIVE_INFINITY
  for (let round = 0; sent < budget && Date.now() < deadline && findings.size < maxFindings; round++) {
    const runSeed = (parameters.seed + round * 0x9e3779b1) | 0
    let locked: string | undefined
    let shrinkSent = 0
    let first: FuzzCase[] | undefined
    let last: { fuzzCase: FuzzCase; violation: Violation } | undefined
    const property = fc.asyncProperty(arbitrary, async (cases) => {
      if (locked === undefined && (sent >= budget || Date.now() >= deadline)) return true
      if (locked !== undefined && shrinkSent >= SHRINK_REQUESTS) return true
      if (locked === undefined) for (const c of cases) parameters.onRequest?.(c.step)
      const verdicts = await Promise.all(cases.map((c) => judgeCase(c, context)))
      sent += cases.length
      parameters.onRequests?.(cases.length)
      if (locked !== undefined) shrinkSent += cases.length
      let failing: { fuzzCase: FuzzCase; violation: Violation } | undefined
      verdicts.forEach(({ status, violation }, i) => {
        const fuzzCase = cases[i]!
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
        first = cases
      }
      last = failing
      return false
    })
    const remaining = Math.min(1_000_000, Math.max(1, Math.ceil((budget - sent) / (BATCH / 2))))
    const result = await fc.check(property, {
      seed: runSeed,
      numRuns: remaining,
      endOnFailure: false,
      ...(Number.isFinite(deadline) && { interruptAfterTimeLimit: Math.max(1, deadline - Date.now()) }),
    })
    // No finding: the budget or the time is spent, or fast-check's runs are and another round goes on.
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
      exchange: violation.exchange,
    })
  }
  return sent
}

/**
 * Judges a case; a refusal that does not name the change is checked against the same request
 * without the change: refused for the same reasons, the target never got to the change (an
 * unfunded account, a limit of its own), and the case proves nothing either way.
 */
async function judgeCase(fuzzCase: FuzzCase, context: ScenarioContext): Promise<Judgement> {
  const judgement = await judgeStep(fuzzCase.step, fuzzCase.property, context)
  const { status, violation, reasons } = judgement
  if (
    !violation ||
    !fuzzCase.control ||
    violation.property === 'no-5xx' ||
    status === undefined ||
    status >= 500
  )
    return judgement
  const control = await judgeStep(fuzzCase.control, 'response-schema', context)
  if (
    control.status !== undefined &&
    control.status >= 400 &&
    control.status < 500 &&
    control.reasons === reasons
  )
    return { status, reasons }
  return judgement
}
