import type { RunResult, ScenarioResult } from '../runner/types'
import { reportBytes, scenarioBytes } from './stringifyReport'

/**
 * The JSON report: the whole run, every check with its spec section, expected and actual values
 * and the request/response excerpts (the API key redacted, bodies cut to 4 KB).
 */
export function renderJson(run: RunResult): string {
  return `${JSON.stringify(jsonReport(run), null, 2)}\n`
}

/**
 * {@link renderJson}'s text in UTF-8 (what writeReports writes), made quicker: each step's
 * exchange, held by each of its checks, serialized once (stringifyReport.ts; compared in tests);
 * each scenario `rendered` holds (by {@link renderScenariosAsTheyEnd}) as it was rendered then.
 */
export function renderJsonBytes(run: RunResult, rendered?: ReadonlyMap<object, Buffer>): Buffer {
  return reportBytes(jsonReport(run), undefined, rendered)
}

/**
 * Renders each scenario's part of report.json once it ends (its `add`, a run's onScenario), on
 * a later turn of the event loop, while the run goes on: at the end only the rest is rendered
 * ({@link renderJsonBytes}' `rendered`), in the ~65 ms from the last scenario to the exit.
 * Only for a run whose results nothing changes once they are reported (no baseline: it marks
 * checks).
 *
 * @example
 * const scenarios = renderScenariosAsTheyEnd()
 * const run = await runConformance({ …, onScenario: scenarios.add })
 * renderJsonBytes(run, scenarios.rendered)
 */
export function renderScenariosAsTheyEnd(): {
  add: (result: ScenarioResult) => void
  rendered: ReadonlyMap<object, Buffer>
} {
  const rendered = new Map<object, Buffer>()
  return {
    add: (result) => void setImmediate(() => rendered.set(result, scenarioBytes(result))),
    rendered,
  }
}

/** The object report.json is the JSON text of. */
function jsonReport(run: RunResult): object {
  const { manifest: _manifest, accounts, ...capabilities } = run.capabilities
  // Private keys of funded accounts are not for a report that may be published.
  return { ...run, capabilities: { ...capabilities, accounts: accounts.length } }
}
