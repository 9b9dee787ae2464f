import type { RunResult } from '../runner/types'
import { reportBytes, stringifyReport } from './stringifyReport'

/**
 * The JSON report: the whole run, every check with its spec section, expected and actual values
 * and the request/response excerpts (the API key redacted, bodies cut to 4 KB).
 */
export function renderJson(run: RunResult): string {
  // JSON.stringify(report, null, 2)'s text, each step's exchange serialized once (stringifyReport.test.ts).
  return `${stringifyReport(jsonReport(run))}\n`
}

/** The bytes of {@link renderJson}'s text, UTF-8, made without it (quicker: stringifyReport.ts). */
export function renderJsonBytes(run: RunResult): Buffer {
  return reportBytes(jsonReport(run))
}

/** The object report.json is the JSON text of. */
export function jsonReport(run: RunResult): object {
  const { manifest: _manifest, accounts, ...capabilities } = run.capabilities
  // Private keys of funded accounts are not for a report that may be published.
  return { ...run, capabilities: { ...capabilities, accounts: accounts.length } }
}
