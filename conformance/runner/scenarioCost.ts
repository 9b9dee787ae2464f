import type { LoadedScenario } from '../scenario/loadScenarios'

/**
 * A rough cost of a scenario (of its steps from step `from`, 0-based), in milliseconds of a
 * run of all packs against the runner's own simulator, to start the longest first: each kind
 * of step weighs what it took on average there (report.json `stepsMs`, BENCHMARKS.md, issue
 * 29): a request ~50 ms, a poll ~150, a webhook ~100, a chain step ~30, a wait its own time.
 * A scenario of many requests in a row (errors.devnet-validation, 26) is then among the
 * first, not the last to start, where it would end the run alone.
 */
export function estimatedCost(scenario: LoadedScenario, from = 0): number {
  let cost = 0
  for (const step of [...scenario.steps, ...scenario.cleanup].slice(from)) {
    if ('wait' in step) cost += step.wait
    else if ('http' in step) cost += step.poll ? 150 : 50
    else if ('webhook' in step) cost += 100
    else if ('chain' in step || 'clock' in step) cost += 30
    else cost += 5
  }
  return cost
}
