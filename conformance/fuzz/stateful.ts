import { setTimeout as sleep } from 'node:timers/promises'
import fc from 'fast-check'
import { BaseError } from '../../spec/BaseError'
import { buildHttpRequest } from '../runner/buildHttpRequest'
import { interpolate } from '../runner/interpolate'
import { readPath } from '../runner/matchers'
import { NotApplicableError } from '../runner/notApplicableError'
import { createCheckRecorder } from '../runner/recordCheck'
import type { ScenarioContext } from '../runner/scenarioContext'
import { sendRequest } from '../runner/sendRequest'
import { runStep } from '../runner/steps/stepHandlers'
import type { CheckResult } from '../runner/types'
import { initialVariables } from '../runner/variables'
import type { HttpStep, Requirement } from '../scenario/schema'
import type { RequestBudget } from './budget'
import {
  type Executor,
  emptyModel,
  type Model,
  type StatefulSpace,
  type StatusOrder,
  statefulCommands,
  type TaggedStep,
} from './commands'
import { type Coverage, type Finding, findingKey, recordCoverage } from './findings'
import { FUZZ_SCENARIO } from './judge'
import type { PropertyName } from './properties'
import { senderCommand } from './senderCommand'

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

/** The budget is spent: the sequence stops where it is (inconclusive, not a finding). */
class BudgetSpent extends BaseError {
  override name = 'Fuzz.BudgetSpent'
  constructor() {
    super('The request budget is spent.')
  }
}

/** Runs steps on the target with the runner's handlers, one sequence's variables shared. */
function createExecutor(
  context: ScenarioContext,
  coverage: Coverage,
  takeRequest: () => boolean,
): Executor & { steps: TaggedStep[] } {
  const steps: TaggedStep[] = []
  const checks: CheckResult[] = []
  // The sequence's own inbox on the run's receiver (deposits' webhooks), as a scenario has.
  const inbox = context.receiver?.createInbox()
  const vars = initialVariables(context)
  if (inbox) Object.assign(vars, { 'webhook.url': inbox.url, 'webhook.secret': inbox.secret })
  const shared = {
    scenario: FUZZ_SCENARIO,
    context,
    vars,
    enabledFaults: new Set<string>(),
    inboxId: inbox?.id,
    deadline: Date.now() + 10 * 60_000,
    note: () => {},
  }
  const runTagged = async (tagged: TaggedStep) => {
    // A request is taken from the budget before it is sent.
    if ('http' in tagged.step && !takeRequest()) throw new BudgetSpent()
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
    const status = mine.find((c) => c.name === 'status')?.actual
    // A chain or webhook step checks its property without an HTTP status of its own.
    recordCoverage(
      coverage,
      tagged.route,
      'http' in tagged.step ? (typeof status === 'number' ? status : undefined) : null,
      tagged.property,
      mine.some((c) => c.status === 'failed'),
    )
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
    read: (name) => (Object.hasOwn(shared.vars, name) ? shared.vars[name] : undefined),
    run: async (tagged) => {
      for (const step of tagged) await runTagged(step)
    },
    pollForward: async (poll: TaggedStep, order: StatusOrder) => {
      const http = (poll.step as HttpStep).http
      const { rank, final } = order
      let seen: string | undefined
      const until = Date.now() + 90_000
      while (Date.now() < until) {
        if (!takeRequest()) throw new BudgetSpent()
        const request = buildHttpRequest(
          interpolate(http, shared.vars),
          FUZZ_SCENARIO,
          context,
          http.version === 'alps' || http.version === 'blanc' ? http.version : context.version,
        )
        const response = await sendRequest({ ...request, timeoutMs: 30_000 }).catch(() => undefined)
        const status = readPath(response?.json, order.pointer).value
        const known = typeof status === 'string' && status in rank
        const backwards =
          known && seen !== undefined && (final.has(seen) ? status !== seen : rank[status]! < rank[seen]!)
        recordCoverage(coverage, poll.route, response?.status, poll.property, backwards)
        if (known) {
          if (backwards) {
            // The scenario: reach the later status, then read it again: it must not have gone back.
            const later = Object.keys(rank).filter((s) =>
              final.has(seen!) ? s === seen : rank[s]! >= rank[seen!]!,
            )
            steps.push(
              {
                ...poll,
                step: {
                  ...(poll.step as HttpStep),
                  name: `it reaches ${seen}`,
                  expect: { status: 200, body: { [order.pointer]: { equals: seen } } },
                },
              },
              {
                ...poll,
                step: {
                  name: `its status stays ${seen} or later`,
                  http,
                  expect: { status: 200, body: { [order.pointer]: { oneOf: later } } },
                },
              },
            )
            throw new StatefulFailure(
              poll.property,
              poll.route,
              `status went from ${seen} back to ${status}`,
              [...steps],
            )
          }
          seen = status
          if (final.has(status)) break
        }
        await sleep(50)
      }
      await runTagged({ ...poll, property: order.settledProperty })
    },
  }
}

/** Parameters of {@link runStatefulPhase}. */
export type StatefulParameters = {
  space: StatefulSpace
  context: ScenarioContext
  seed: number
  /** Sequences of the whole run (of every shard), shrinking aside. */
  runs: number
  /** Whether the i-th sequence of the run is this shard's (default: every one). */
  inShard?: ((sequence: number) => boolean) | undefined
  maxCommands: number
  deadline: number
  /** Each request (polls included) is taken from it; a sequence stops when it is spent. */
  budget: RequestBudget
  coverage: Coverage
  findings: Map<string, Finding>
  /** Stop once there are this many findings (default: go on to the runs). */
  maxFindings?: number | undefined
  /** Called with the number of each sequence this shard runs (determinism and shard checks). */
  onSequence?: ((sequence: number, commands: string) => void) | undefined
}

/**
 * Runs the stateful phase; returns how many sequences it ran (its shard's).
 *
 * @example
 * await runStatefulPhase({ space, context, seed: 1, runs: 5, maxCommands: 6, deadline, budget, coverage, findings })
 */
export async function runStatefulPhase(parameters: StatefulParameters): Promise<number> {
  const { space, deadline, runs } = parameters
  const senders = space.contracts ? senderSequences(runs) : 0
  // By duration: the model's sequences have three quarters of the time, the sender's the rest.
  const modelDeadline =
    senders > 0 && Number.isFinite(deadline) && !Number.isFinite(runs)
      ? Date.now() + (deadline - Date.now()) * 0.75
      : deadline
  const ran = await runSequences(parameters, {
    commands: statefulCommands(space),
    maxCommands: parameters.maxCommands,
    runs,
    first: 0,
    salt: 0x5bd1e995,
    deadline: modelDeadline,
  })
  if (senders === 0) return ran
  return (
    ran +
    (await runSequences(parameters, {
      commands: [senderCommand(space)],
      maxCommands: 2,
      runs: senders,
      first: Number.isFinite(runs) ? runs : 0,
      salt: 0x27d4eb2f,
      deadline,
    }))
  )
}

/**
 * The sender's own sequences of a run of `runs` sequences (one per four, at least one; all the
 * time left by duration): each quotes, submits and settles for a sender of its own and reads
 * its balances on both sides (senderCommand.ts), one or two times. They are sequences of their
 * own, after the model's, so that the model's sequences stay what the seed made them before.
 */
export const senderSequences = (runs: number) =>
  Number.isFinite(runs) ? Math.max(1, Math.ceil(runs / 4)) : Number.POSITIVE_INFINITY

/** Runs `runs` sequences of `commands` (numbered from `first`, their fast-check seeds salted), shrinking each new finding. */
async function runSequences(
  parameters: StatefulParameters,
  stream: {
    commands: fc.Arbitrary<fc.AsyncCommand<Model, Executor>>[]
    maxCommands: number
    runs: number
    first: number
    salt: number
    deadline: number
  },
): Promise<number> {
  const { context, findings, coverage, budget } = parameters
  const { runs, deadline } = stream
  const inShard = parameters.inShard ?? (() => true)
  const arbitrary = fc.commands(stream.commands, { maxCommands: stream.maxCommands, size: 'max' })
  // Sequences generated so far, whichever shard they are for, and those this shard ran.
  let generated = 0
  let ran = 0
  const maxFindings = parameters.maxFindings ?? Number.POSITIVE_INFINITY
  const going = () => generated < runs && Date.now() < deadline && budget.left() > 0
  for (let round = 0; going() && findings.size < maxFindings; round++) {
    const runSeed = (parameters.seed + stream.salt + round * 0x9e3779b1) | 0
    let locked: string | undefined
    let shrinks = 0
    let first = 0
    let last: StatefulFailure | undefined
    const property = fc.asyncProperty(arbitrary, async (commands) => {
      if (locked === undefined) {
        if (!going()) return true
        const sequence = stream.first + generated++
        if (!inShard(sequence)) return true
        ran++
        parameters.onSequence?.(sequence, [...commands].map(String).join(', '))
      } else if (++shrinks > 40) return true
      const kind = locked === undefined ? 'sequences' : 'shrinking'
      const executor = createExecutor(context, coverage, () => budget.take(kind))
      try {
        await fc.asyncModelRun(() => ({ model: emptyModel(), real: executor }), commands)
        return true
      } catch (error) {
        if (!(error instanceof StatefulFailure)) {
          if (error instanceof NotApplicableError || error instanceof BudgetSpent) return true
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
    const shrinkingBefore = budget.counts().shrinking
    const result = await fc.check(property, {
      seed: runSeed,
      numRuns: Math.max(1, runs - generated),
      endOnFailure: false,
      ...(Number.isFinite(deadline) && { interruptAfterTimeLimit: Math.max(1, deadline - Date.now()) }),
    })
    if (!result.failed || !last || !locked) continue
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
      requires: { capabilities: requirementsOf(last.steps) },
      sizeBeforeShrinking: first,
      shrinkingRequests: budget.counts().shrinking - shrinkingBefore,
    })
  }
  return ran
}

/** What a finding's steps need of a target: quotes and settlement, deposits and webhooks, the clock. */
function requirementsOf(steps: readonly TaggedStep[]): Requirement[] {
  const needs = new Set<Requirement>(['chains'])
  for (const { step } of steps) {
    if ('clock' in step) needs.add('control-api')
    if ('webhook' in step) needs.add('webhooks')
    if ('http' in step && step.http.path.startsWith('/deposit-processor')) needs.add('deposits')
    if ('http' in step && step.http.path === '/withdrawals') needs.add('withdrawals')
    if ('http' in step && /^\/(intents|intent-operation)/.test(step.http.path)) {
      needs.add('quotes')
      needs.add('settlement')
    }
  }
  return [...needs]
}
