import { type Step, type StepKind, type StepOf, stepKind } from '../../scenario/schema'
import { chainStep } from './chainStep'
import { clockStep } from './clockStep'
import { faultStep } from './faultStep'
import { httpStep } from './httpStep'
import { patchStep } from './patchStep'
import { signIntentOpStep } from './signIntentOpStep'
import { signStep } from './signStep'
import type { StepHandler, StepRun } from './stepRun'
import { waitStep } from './waitStep'
import { webhookStep } from './webhookStep'

/** The handler of each step kind of the scenario schema; a kind without one is a type error. */
export const stepHandlers: { [kind in StepKind]: StepHandler<kind> } = {
  http: httpStep,
  chain: chainStep,
  clock: clockStep,
  fault: faultStep,
  wait: waitStep,
  webhook: webhookStep,
  sign: signStep,
  signIntentOp: signIntentOpStep,
  patch: patchStep,
}

/**
 * Runs one step through the handler of its kind.
 *
 * @example
 * await runStep({ wait: 100 }, run)
 */
export function runStep(step: Step, run: StepRun): Promise<void> {
  return runStepOfKind(stepKind(step), step, run)
}

function runStepOfKind<kind extends StepKind>(kind: kind, step: StepOf<kind>, run: StepRun): Promise<void> {
  return stepHandlers[kind](step, run)
}
