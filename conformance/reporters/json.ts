import type { RunResult } from '../runner/types'

/**
 * The JSON report: the whole run, every check with its spec section, expected and actual values
 * and the request/response excerpts (the API key redacted, bodies cut to 4 KB).
 */
export function renderJson(run: RunResult): string {
  const { manifest: _manifest, accounts, ...capabilities } = run.capabilities
  // Private keys of funded accounts are not for a report that may be published.
  return `${JSON.stringify({ ...run, capabilities: { ...capabilities, accounts: accounts.length } }, null, 2)}\n`
}
