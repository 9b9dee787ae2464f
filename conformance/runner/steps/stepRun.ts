import type { LoadedScenario } from '../../scenario/loadScenarios'
import type { StepKind, StepOf } from '../../scenario/schema'
import type { RecordCheck } from '../recordCheck'
import type { ScenarioContext } from '../scenarioContext'
import type { Variables } from '../variables'

/** What a step handler works with: the scenario, the run, its variables and the step's check recorder. */
export type StepRun = {
  scenario: LoadedScenario
  context: ScenarioContext
  /** Read by `${name}`, written by captures. */
  vars: Variables
  check: RecordCheck
  /** Faults the scenario enabled so far, disabled again when it ends. */
  enabledFaults: Set<string>
  /** The scenario's inbox on the webhook receiver, when the target can reach it. */
  inboxId: string | undefined
  /** When the scenario's time is up, ms since the epoch. */
  deadline: number
  /** Notes what the runner did that is not a check (its own setup, a step left out): the report lists them. */
  note: (text: string) => void
}

/**
 * Carries out one step of a kind: records its checks through `run.check`, and throws
 * NotApplicableError when the target cannot run it (any other error fails the step).
 */
export type StepHandler<kind extends StepKind> = (step: StepOf<kind>, run: StepRun) => Promise<void>

/** A real wait as messages state it (`0.9 s`, `12.3 s`), from its milliseconds. */
export const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`
