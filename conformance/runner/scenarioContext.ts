import type { Version } from '../scenario/schema'
import type { Profile } from './profile'
import type { TargetCapabilities } from './types'
import type { WebhookReceiver } from './webhookReceiver'

/** What every scenario of a run shares. */
export type ScenarioContext = {
  target: string
  apiKey: string
  caps: TargetCapabilities
  receiver?: WebhookReceiver | undefined
  /** `--version`: only scenarios of this version (or of none) run; steps default to it. */
  version?: Version | undefined
  /**
   * The target is the simulator this run started (no `--target`): the runner knows how it
   * answers (it reads a refused body to its end first), and waits for nothing it never does.
   */
  ownSimulator?: boolean | undefined
  /** Time limit of one scenario, ms. */
  timeoutMs: number
  /** `--max-wait`: the longest real wait of a clock step without the control API, seconds (overrides the step's own). */
  maxWaitSeconds?: number | undefined
  /** `--profile`: the paths the target serves (default: the spec's), with what the runner learned applied. */
  profile?: Profile | undefined
  /** The profile's mappings the run's requests went through, each once (the report lists them). */
  mappingsApplied?: Set<string> | undefined
}
