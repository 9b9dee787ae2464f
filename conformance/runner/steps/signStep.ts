import { smartAccountSignature } from '../../../lib/smartAccount'
import type { SignStep } from '../../scenario/schema'
import { signTypedDataAs } from '../chainActions'
import { interpolate } from '../interpolate'
import type { StepRun } from './stepRun'

/** `sign`: signs EIP-712 typed data as given with an account (or a smart account's owner key), and captures the signature(s). */
export async function signStep(step: SignStep, run: StepRun): Promise<void> {
  const sign = interpolate(step.sign, run.vars)
  const signed = await signTypedDataAs(run.context.caps, sign.account, sign.typedData)
  run.vars[step.captureAs] = !sign.smartAccount
    ? signed
    : Array.isArray(signed)
      ? signed.map(smartAccountSignature)
      : smartAccountSignature(signed)
}
