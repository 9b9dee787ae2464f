import type { LoadedScenario } from '../scenario/loadScenarios'
import type { CheckResult } from './types'

/** What a check saw, beside its name and outcome. */
export type CheckDetails = Partial<
  Pick<CheckResult, 'expected' | 'actual' | 'message' | 'exchange' | 'level'>
>

/** Records one check of the current step (under the scenario's spec section unless `spec` is given); returns `ok`. */
export type RecordCheck = (name: string, ok: boolean, details?: CheckDetails, spec?: string) => boolean

/** A {@link RecordCheck} that appends the checks of one step of a scenario to `checks`. */
export function createCheckRecorder(
  checks: CheckResult[],
  scenario: LoadedScenario,
  stepNumber: number,
): RecordCheck {
  return (name, ok, details = {}, spec = scenario.spec) => {
    checks.push({
      id: `${scenario.id}/${stepNumber}/${name}`,
      scenarioId: scenario.id,
      step: stepNumber,
      name,
      spec,
      status: ok ? 'passed' : 'failed',
      ...details,
      level: details.level ?? scenario.level,
    })
    return ok
  }
}
