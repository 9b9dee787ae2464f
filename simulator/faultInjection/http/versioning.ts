import type { VersionPolicy } from '../../http/plugins/versioning'
import type { Has } from './types'

/**
 * The `version.*` faults, around the versioning plugin's policy: a missing header resolves to
 * blanc (`version.missing-as-blanc`, still noted missing), a malformed or unknown one is served
 * as alps without complaint (`version.accept-malformed`, `version.accept-unknown`), and a route
 * serves the other version too (`version.serve-other-version-paths`). A header without a problem
 * resolves as before, at the cost of one call.
 *
 * @example
 * bendVersioning(app.versionPolicy, faults)
 */
export function bendVersioning(policy: VersionPolicy, faults: Has): void {
  const { resolve, servesOther } = policy
  policy.resolve = (header) => {
    const resolved = resolve(header)
    switch (resolved.problem) {
      case 'missing':
        return faults.has('version.missing-as-blanc') ? { ...resolved, version: '2026-04.blanc' } : resolved
      case 'malformed':
        return faults.has('version.accept-malformed') ? { ...resolved, problem: undefined } : resolved
      case 'unknown':
        return faults.has('version.accept-unknown') ? { ...resolved, problem: undefined } : resolved
      default:
        return resolved
    }
  }
  policy.servesOther = (request, versions) =>
    faults.has('version.serve-other-version-paths') || servesOther(request, versions)
}
