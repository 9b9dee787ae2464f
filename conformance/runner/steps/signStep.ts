import type { SignStep } from '../../scenario/schema'
import { signTypedDataAs } from '../chainActions'
import { interpolate } from '../interpolate'
import type { StepRun } from './stepRun'

/** `sign`: signs EIP-712 typed data as given with an account, and captures the signature(s). */
export async function signStep(step: SignStep, run: StepRun): Promise<void> {
  const sign = interpolate(step.sign, run.vars)
  run.vars[step.captureAs] = await signTypedDataAs(run.context.caps, sign.account, sign.typedData)
}
