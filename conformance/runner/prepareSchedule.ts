import type { LoadedScenario } from '../scenario/loadScenarios'
import { mayRunBesideAlone, scenarioClaims } from './schedule'

/**
 * Derives each scenario's claims and whether it may run beside one that must run alone (both
 * remembered: schedule.ts), one per turn of the event loop: while the target answers the
 * capability probes (~55 ms the runner mostly waits), not when the schedule starts (~10 ms)
 * nor meanwhile (10-30 ms: the request schemas' first parses).
 */
export async function prepareSchedule(scenarios: readonly LoadedScenario[]): Promise<void> {
  for (const scenario of scenarios) {
    scenarioClaims(scenario)
    mayRunBesideAlone(scenario)
    await new Promise((resolve) => setImmediate(resolve))
  }
}
