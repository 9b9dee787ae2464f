import type { RunResult } from '../runner/types'
import { reportBytes } from './stringifyReport'

/**
 * The JSON report: the whole run, every check with its spec section, expected and actual values
 * and the request/response excerpts (the API key redacted, bodies cut to 4 KB).
 */
export function renderJson(run: RunResult): string {
  return `${JSON.stringify(jsonReport(run), null, 2)}\n`
}

/**
 * {@link renderJson}'s text in UTF-8 (what writeReports writes), made quicker: each step's
 * exchange, held by each of its checks, serialized once (stringifyReport.ts; compared in tests).
 */
export function renderJsonBytes(run: RunResult): Buffer {
  return reportBytes(jsonReport(run))
}

/** The object report.json is the JSON text of. */
function jsonReport(run: RunResult): object {
  const { manifest: _manifest, accounts, ...capabilities } = run.capabilities
  // Private keys of funded accounts are not for a report that may be published.
  return { ...run, capabilities: { ...capabilities, accounts: accounts.length } }
}
