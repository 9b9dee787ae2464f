import type { FaultStep } from '../../scenario/schema'
import { postControl } from '../controlApi'
import { excerpt } from '../excerpt'
import { NotApplicableError } from '../notApplicableError'
import type { StepRun } from './stepRun'

/** `fault`: enables or disables faults on the target, and keeps which are on for the scenario's end. */
export async function faultStep(step: FaultStep, run: StepRun): Promise<void> {
  const { context, check } = run
  if (!context.caps.faults)
    throw new NotApplicableError('the target cannot inject faults (no POST /_devnet/faults)')
  const fault = step.fault
  const response = await postControl(context, '/_devnet/faults', fault)
  const ok = response.status === 200
  check(
    'fault control',
    ok,
    { expected: 200, actual: response.status, message: ok ? undefined : excerpt(response.text) },
    'DESIGN: devnet control API',
  )
  if (ok) {
    for (const name of fault.enable ?? []) run.enabledFaults.add(name)
    for (const name of fault.disable ?? []) run.enabledFaults.delete(name)
  }
}
