import type { RunResult } from '../runner/types'
import { stringifyShared } from './stringifyShared'

/**
 * Where the report's shared objects are: report → scenarios → scenario → checks → check → its
 * `exchange` (and `expected`, `actual`) at depth 5. Every check of a step holds the step's one
 * exchange object, so each is serialized once (stringifyShared); the text is the same as
 * `JSON.stringify(report, null, 2)`'s (reporters.test.ts compares them).
 */
const SHARED_DEPTH = 5

/**
 * The JSON report: the whole run, every check with its spec section, expected and actual values
 * and the request/response excerpts (the API key redacted, bodies cut to 4 KB).
 */
export function renderJson(run: RunResult): string {
  return `${stringifyShared(jsonReport(run), SHARED_DEPTH)}\n`
}

/** The object report.json is the JSON text of. */
export function jsonReport(run: RunResult): object {
  const { manifest: _manifest, accounts, ...capabilities } = run.capabilities
  // Private keys of funded accounts are not for a report that may be published.
  return { ...run, capabilities: { ...capabilities, accounts: accounts.length } }
}
