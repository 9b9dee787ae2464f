import type { LoadedScenario } from '../scenario/loadScenarios'
import type { Step } from '../scenario/schema'
import { postControl } from './controlApi'
import { NotApplicableError } from './notApplicableError'
import { notApplicableReason } from './notApplicableReason'
import { createCheckRecorder } from './recordCheck'
import type { ScenarioContext } from './scenarioContext'
import { aloneSteps } from './schedule'
import { capturedBy, namesAny } from './stepNames'
import { runStep } from './steps/stepHandlers'
import type { StepRun } from './steps/stepRun'
import type { CheckResult, ScenarioResult } from './types'
import { initialVariables } from './variables'
import { stepVersion } from './versionHeaders'

/** Hooks of {@link runScenario}. */
export type RunScenarioHooks = {
  /**
   * Called (and awaited) once before the first step after those that make the scenario run
   * alone ({@link aloneSteps}), once no fault it enabled is left on: the rest of it may run
   * beside other scenarios. Not called when it ends first.
   */
  onAloneDone?: (() => Promise<void> | void) | undefined
}

/**
 * Runs one scenario's steps in order and returns every check they made. A step whose checks
 * fail stops the scenario (later steps depend on it; its cleanup steps still run); faults the
 * scenario enabled are disabled again whatever happens.
 *
 * @example
 * const result = await runScenario(scenario, { target, apiKey, caps, timeoutMs: 60_000 })
 * result.status // 'passed' | 'failed' | 'not-applicable'
 */
export async function runScenario(
  scenario: LoadedScenario,
  context: ScenarioContext,
  hooks: RunScenarioHooks = {},
): Promise<ScenarioResult> {
  const started = performance.now()
  const base = {
    id: scenario.id,
    title: scenario.title,
    pack: scenario.pack,
    file: scenario.file,
    spec: scenario.spec,
  }
  const reason = notApplicableReason(scenario, context)
  if (reason) return { ...base, status: 'not-applicable', reason, checks: [], durationMs: 0 }

  const checks: CheckResult[] = []
  const vars = initialVariables(context)
  const inbox = context.receiver?.createInbox()
  if (inbox) Object.assign(vars, { 'webhook.url': inbox.url, 'webhook.secret': inbox.secret })
  const notes: string[] = []
  const shared: Omit<StepRun, 'check'> = {
    scenario,
    context,
    vars,
    note: (text) => void notes.push(text),
    enabledFaults: new Set<string>(),
    inboxId: inbox?.id,
    deadline: Date.now() + context.timeoutMs,
  }
  const steps: { step: Step; cleanup: boolean }[] = [
    ...scenario.steps.map((step) => ({ step, cleanup: false })),
    ...scenario.cleanup.map((step) => ({ step, cleanup: true })),
  ]
  let status: ScenarioResult['status'] = 'passed'
  let stopReason: string | undefined
  let stopped = false
  const otherVersionSteps: number[] = []
  /** Variables that only steps not run (the other version's) would have captured. */
  const missingCaptures = new Set<string>()
  /** Steps not run because they name one of those. */
  const dependentSteps: number[] = []
  let aloneUntil = hooks.onAloneDone ? aloneSteps(scenario) : undefined
  const stepsMs = steps.map(() => 0)
  try {
    for (const [index, { step, cleanup }] of steps.entries()) {
      if (aloneUntil !== undefined && index >= aloneUntil && shared.enabledFaults.size === 0) {
        aloneUntil = undefined
        await hooks.onAloneDone?.()
      }
      if (stopped && !cleanup) continue
      const stepNumber = index + 1
      // `--version blanc` tests blanc only: a step that speaks the other version (its own, or
      // the one its expectation names: stepVersion) is not run.
      const speaks = 'http' in step ? stepVersion(step, scenario, context.version) : undefined
      // So is a step that names a value only such a step captures (an alps intentOp to sign):
      // it cannot be written without it, and what it captures is missing in turn.
      const otherVersion =
        context.version && (speaks === 'alps' || speaks === 'blanc') && speaks !== context.version
      if (otherVersion || namesAny(step, missingCaptures)) {
        ;(otherVersion ? otherVersionSteps : dependentSteps).push(stepNumber)
        for (const name of capturedBy(step)) missingCaptures.add(name)
        continue
      }
      for (const name of capturedBy(step)) missingCaptures.delete(name)
      const before = checks.length
      const stepStarted = performance.now()
      await attemptStep(step, {
        ...shared,
        check: createCheckRecorder(checks, scenario, stepNumber),
      }).finally(() => {
        stepsMs[index] = Math.round(performance.now() - stepStarted)
      })
      // A failed `should …` check (the public service's way, beyond the spec) stops nothing.
      if (
        !cleanup &&
        checks.slice(before).some((c) => c.status === 'failed' && !c.name.startsWith('should '))
      ) {
        if (stepNumber < scenario.steps.length)
          stopReason = `stopped after step ${stepNumber}; ${notRunSteps(scenario.steps.length - stepNumber)}`
        stopped = true
      }
    }
  } catch (error) {
    if (!(error instanceof NotApplicableError)) throw error
    status = 'not-applicable'
    stopReason = error.shortMessage
  } finally {
    if (shared.enabledFaults.size > 0)
      await postControl(context, '/_devnet/faults', { disable: [...shared.enabledFaults] }).catch(() => {})
  }
  // Nothing of it ran: every step it has for the target speaks the other version.
  if (status === 'passed' && checks.length === 0 && otherVersionSteps.length > 0) {
    status = 'not-applicable'
    stopReason = `its steps speak ${context.version === 'alps' ? 'blanc' : 'alps'}; this run is restricted to --version ${context.version}`
  }
  if (status !== 'not-applicable' && checks.some((c) => c.status === 'failed')) status = 'failed'
  return {
    ...base,
    status,
    reason: stopReason,
    checks,
    durationMs: Math.round(performance.now() - started),
    stepsMs,
    ...(notes.length > 0 && { notes }),
    ...(otherVersionSteps.length > 0 && {
      stepsNotRun: `step${otherVersionSteps.length === 1 ? '' : 's'} ${otherVersionSteps.join(', ')} not run: ${context.version === 'alps' ? 'blanc' : 'alps'}, and the run is --version ${context.version}${dependentSteps.length > 0 ? `; step${dependentSteps.length === 1 ? '' : 's'} ${dependentSteps.join(', ')} neither: ${dependentSteps.length === 1 ? 'it needs' : 'they need'} what those capture` : ''}`,
    }),
  }
}

/**
 * Runs one step unless the scenario's time is up; an error fails the step as a check, except
 * NotApplicableError, which ends the scenario.
 */
async function attemptStep(step: Step, run: StepRun): Promise<void> {
  if (Date.now() > run.deadline) {
    run.check('time limit', false, {
      message: `the scenario exceeded --timeout ${run.context.timeoutMs / 1000}s`,
    })
    return
  }
  try {
    await runStep(step, run)
  } catch (error) {
    if (error instanceof NotApplicableError) throw error
    run.check('step', false, { message: error instanceof Error ? error.message : String(error) })
  }
}

/** "1 step not run", "3 steps not run". */
function notRunSteps(count: number): string {
  return `${count} step${count === 1 ? '' : 's'} not run`
}
