import { setTimeout as sleep } from 'node:timers/promises'
import type { WaitStep } from '../../scenario/schema'
import type { StepRun } from './stepRun'

/** `wait`: pauses the scenario for the given milliseconds. */
export async function waitStep(step: WaitStep, _run: StepRun): Promise<void> {
  await sleep(step.wait)
}
