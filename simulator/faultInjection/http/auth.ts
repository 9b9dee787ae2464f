import type { AuthPolicy } from '../../http/plugins/auth'
import type { Has } from './types'

/**
 * The `auth.*` faults, around the auth plugin's policy: a missing key (`auth.accept-missing-key`),
 * a key it does not accept (`auth.accept-wrong-key`), or any key problem on the control API
 * (`auth.control-api-open`) lets the request through.
 *
 * @example
 * bendAuth(app.authPolicy, faults)
 */
export function bendAuth(policy: AuthPolicy, faults: Has): void {
  const { refuses } = policy
  policy.refuses = (request, problem) => {
    if (request.routeOptions.config.control && faults.has('auth.control-api-open')) return false
    if (problem === 'missing' && faults.has('auth.accept-missing-key')) return false
    if (problem === 'unknown' && faults.has('auth.accept-wrong-key')) return false
    return refuses(request, problem)
  }
}
