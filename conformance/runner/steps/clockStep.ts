import { setTimeout as sleep } from 'node:timers/promises'
import { BaseError } from '../../../spec/BaseError'
import type { ClockStep } from '../../scenario/schema'
import { postControl, targetNow } from '../controlApi'
import { excerpt } from '../excerpt'
import { interpolate } from '../interpolate'
import { NotApplicableError } from '../notApplicableError'
import type { StepRun } from './stepRun'

/** Thrown when a clock step's `advance` or `until` is not a number of seconds. */
export class ClockSecondsError extends BaseError {
  override name = 'Conformance.ClockSecondsError'
}

/**
 * `clock`: advances the target's clock by seconds or until a time, through the control API;
 * without one, waits a short time out for real or finds the scenario not applicable.
 */
export async function clockStep(step: ClockStep, run: StepRun): Promise<void> {
  const { context, check } = run
  const clock = interpolate(step.clock, run.vars)
  let seconds: number
  if (clock.until !== undefined) {
    const now = context.caps.controlApi ? await targetNow(context) : Date.now() / 1000
    seconds = Math.max(1, Math.ceil(Number(clock.until) - now) + 1)
  } else seconds = Math.ceil(Number(clock.advance))
  if (!Number.isFinite(seconds) || seconds < 0)
    throw new ClockSecondsError(`the clock step does not give a number of seconds: ${JSON.stringify(clock)}`)
  if (context.caps.controlApi) {
    const response = await postControl(context, '/_devnet/clock/advance', { seconds: Math.max(1, seconds) })
    check(
      'clock advance',
      response.status === 200,
      {
        expected: 200,
        actual: response.status,
        message: response.status === 200 ? undefined : excerpt(response.text),
      },
      'DESIGN: devnet control API',
    )
    return
  }
  const maxWait = context.maxWaitSeconds ?? clock.maxWaitSeconds
  if (clock.fallback === 'wait' && seconds <= maxWait) {
    await sleep(seconds * 1000)
    return
  }
  throw new NotApplicableError(
    `no control API to advance the clock, and ${seconds}s is longer than the ${maxWait}s the run may wait (--max-wait)`,
  )
}
