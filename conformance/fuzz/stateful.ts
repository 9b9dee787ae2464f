import { setTimeout as sleep } from 'node:timers/promises'
import fc from 'fast-check'
import { BaseError } from '../../spec/BaseError'
import { INTENT_STATUSES } from '../../spec/status'
import { buildHttpRequest } from '../runner/buildHttpRequest'
import { interpolate } from '../runner/interpolate'
import { NotApplicableError } from '../runner/notApplicableError'
import { createCheckRecorder } from '../runner/recordCheck'
import type { ScenarioContext } from '../runner/scenarioContext'
import { sendRequest } from '../runner/sendRequest'
import { runStep } from '../runner/steps/stepHandlers'
import type { CheckResult } from '../runner/types'
import { initialVariables } from '../runner/variables'
import type { HttpStep } from '../scenario/schema'
import {
  type Executor,
  type Model,
  type QuoteRef,
  type StatefulSpace,
  statefulCommands,
  type TaggedStep,
} from './commands'
import { type Coverage, type Finding, findingKey, recordCoverage } from './findings'
import { FUZZ_SCENARIO } from './judge'
import type { PropertyName } from './properties'

/**
 * The stateful phase: fast-check's model-based testing (`fc.commands`, `fc.asyncModelRun`)
 * drives sequences of the model's commands (commands.ts) against the target through the
 * conformance runner's own step handlers. A sequence that breaks a property not found yet is
 * shrunk by fast-check to the fewest commands that still break it, and its steps are the
 * finding's scenario.
 */

/** A step of a sequence broke a property. */
class StatefulFailure extends BaseError {
  override name = 'Fuzz.StatefulFailure'
  constructor(
    readonly property: PropertyName,
    readonly route: string,
    readonly detail: string,
    readonly steps: TaggedStep[],
  ) {
    super(`${property} on ${route}: ${detail}`)
  }
}

/** Statuses in the order an intent moves through them; FAILED and EXPIRED are final like COMPLETED. */
const RANK: Record<string, number> = Object.fromEntries(INTENT_STATUSES.map((status, i) => [status, i]))
const FINAL = new Set(['COMPLETED', 'FAILED', 'EXPIRED'])

/** Runs steps on the target with the runner's handlers, one sequence's variables shared. */
function createExecutor(
  context: ScenarioContext,
  coverage: Coverage,
  countRequest: () => void,
): Executor & { steps: TaggedStep[] } {
  const steps: TaggedStep[] = []
  const checks: CheckResult[] = []
  const shared = {
    scenario: FUZZ_SCENARIO,
    context,
    vars: initialVariables(context),
    enabledFaults: new Set<string>(),
    inboxId: undefined,
    deadline: Date.now() + 10 * 60_000,
    note: () => {},
  }
  const runTagged = async (tagged: TaggedStep) => {
    steps.push(tagged)
    const before = checks.length
    try {
      await runStep(tagged.step, {
        ...shared,
        check: createCheckRecorder(checks, FUZZ_SCENARIO, steps.length),
      })
    } catch (error) {
      if (error instanceof NotApplicableError) throw error
      checks.push({
        id: `fuzz/${steps.length}/step`,
        scenarioId: 'fuzz',
        step: steps.length,
        name: 'step',
        spec: '',
        status: 'failed',
        message: error instanceof Error ? error.message : String(error),
      })
    }
    const mine = checks.slice(before)
    if ('http' in tagged.step) {
      countRequest()
      const status = mine.find((c) => c.name === 'status')?.actual
      recordCoverage(
        coverage,
        tagged.route,
        typeof status === 'number' ? status : undefined,
        tagged.property,
        mine.some((c) => c.status === 'failed'),
      )
    }
    const failed = mine.filter((c) => c.status === 'failed')
    if (failed.length > 0)
      throw new StatefulFailure(
        tagged.property,
        tagged.route,
        failed.map((c) => `${c.name}: ${c.message ?? 'failed'}`).join('; '),
        [...steps],
      )
  }
  return {
    steps,
    run: async (tagged) => {
      for (const step of tagged) await runTagged(step)
    },
    pollForward: async (quote: QuoteRef, poll: TaggedStep) => {
      const http = (poll.step as HttpStep).http
      let seen: string | undefined
      const until = Date.now() + 90_000
      while (Date.now() < until) {
        const request = buildHttpRequest(
          interpolate(http, shared.vars),
          FUZZ_SCENARIO,
          context,
          quote.version,
        )
        const response = await sendRequest({ ...request, timeoutMs: 30_000 }).catch(() => undefined)
        countRequest()
        const status = (response?.json as { status?: unknown } | undefined)?.status
        if (typeof status === 'string' && status in RANK) {
          const backwards =
            seen !== undefined && (FINAL.has(seen) ? status !== seen : RANK[status]! < RANK[seen]!)
          if (backwards) {
            // The scenario: reach the later status, then read it again: it must not have gone back.
            const later = INTENT_STATUSES.filter((s) =>
              FINAL.has(seen!) ? s === seen : RANK[s]! >= RANK[seen!]!,
            )
            steps.push(
              {
                ...poll,
                step: {
                  ...(poll.step as HttpStep),
                  name: `the intent reaches ${seen}`,
                  expect: { status: 200, body: { '/status': { equals: seen } } },
                },
              },
              {
                ...poll,
                property: 'status-forward',
                step: {
                  name: `its status stays ${seen} or later`,
                  http,
                  expect: { status: 200, body: { '/status': { oneOf: [...later] } } },
                },
              },
            )
            throw new StatefulFailure(
              'status-forward',
              poll.route,
              `status went from ${seen} back to ${status}`,
              [...steps],
            )
          }
          seen = status
          if (FINAL.has(status)) break
        }
        await sleep(50)
      }
      await runTagged({ ...poll, property: 'settled-exactly' })
    },
  }
}

/** Parameters of {@link runStatefulPhase}. */
export type StatefulParameters = {
  space: StatefulSpace
  context: ScenarioContext
  seed: number
  /** Sequences to run (shrinking aside). */
  runs: number
  maxCommands: number
  deadline: number
  coverage: Coverage
  findings: Map<string, Finding>
  /** Stop once there are this many findings (default: go on to the runs). */
  maxFindings?: number | undefined
  onRequests?: ((sent: number) => void) | undefined
}

/**
 * Runs the stateful phase; returns how many sequences ran.
 *
 * @example
 * await runStatefulPhase({ space, context, seed: 1, runs: 5, maxCommands: 6, deadline, coverage, findings })
 */
export async function runStatefulPhase(parameters: StatefulParameters): Promise<number> {
  const { context, findings, deadline, coverage } = parameters
  const arbitrary = fc.commands(statefulCommands(parameters.space), {
    maxCommands: parameters.maxCommands,
    size: 'max',
  })
  let runs = 0
  const maxFindings = parameters.maxFindings ?? Number.POSITIVE_INFINITY
  for (
    let round = 0;
    runs < parameters.runs && Date.now() < deadline && findings.size < maxFindings;
    round++
  ) {
    const runSeed = (parameters.seed + 0x5bd1e995 + round * 0x9e3779b1) | 0
    let locked: string | undefined
    let shrinks = 0
    let first = 0
    let last: StatefulFailure | undefined
    const property = fc.asyncProperty(arbitrary, async (commands) => {
      if (locked === undefined && (runs >= parameters.runs || Date.now() >= deadline)) return true
      if (locked !== undefined && ++shrinks > 40) return true
      if (locked === undefined) runs++
      const executor = createExecutor(context, coverage, () => parameters.onRequests?.(1))
      const model: Model = { quotes: [], inFlight: undefined, received: {} }
      try {
        await fc.asyncModelRun(() => ({ model, real: executor }), commands)
        return true
      } catch (error) {
        if (!(error instanceof StatefulFailure)) {
          if (error instanceof NotApplicableError) return true
          throw error
        }
        const key = findingKey(error.property, error.route)
        if (locked === undefined ? findings.has(key) : key !== locked) return true
        if (locked === undefined) {
          locked = key
          first = [...commands].length
        }
        last = error
        return false
      }
    })
    const result = await fc.check(property, {
      seed: runSeed,
      numRuns: Math.max(1, parameters.runs - runs),
      endOnFailure: false,
      ...(Number.isFinite(deadline) && { interruptAfterTimeLimit: Math.max(1, deadline - Date.now()) }),
    })
    if (!result.failed || !last || !locked) break
    const failing = last.steps.at(-1)!
    findings.set(locked, {
      key: locked,
      property: last.property,
      route: last.route,
      phase: 'stateful',
      title: `${last.steps.length} steps: ${failing.step.name ?? last.property}`,
      message: last.detail,
      seed: parameters.seed,
      runSeed,
      steps: last.steps.map((s) => s.step),
      requires: {
        capabilities: [
          ...(['quotes', 'settlement', 'chains'] as const),
          ...(last.steps.some((s) => 'clock' in s.step) ? (['control-api'] as const) : []),
        ],
      },
      sizeBeforeShrinking: first,
    })
  }
  return runs
}
