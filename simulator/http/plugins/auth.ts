import { hash, timingSafeEqual } from 'node:crypto'
import fp from 'fastify-plugin'
import { clientError } from '../errorCodes'

/** The header that carries the caller's API key (spec: Authentication §1). */
export const API_KEY_HEADER = 'x-api-key'

/** The API key `up` prints and accepts when none is given (stated with the start options). */
export { DEFAULT_API_KEY } from '../../../spec/startOptions'

const digest = (value: string) => hash('sha256', value, 'buffer')

/**
 * Checks a key against the accepted ones in constant time: both sides are hashed to the same
 * length, and every accepted key is compared, so timing reveals neither length nor which matched.
 */
export function createKeyCheck(apiKeys: readonly string[]): (key: string) => boolean {
  if (apiKeys.length === 0 || apiKeys.some((key) => key === ''))
    throw new Error('buildApp needs at least one non-empty API key.')
  const digests = apiKeys.map(digest)
  return (key) => {
    const candidate = digest(key)
    let matched = false
    for (const accepted of digests) matched = timingSafeEqual(candidate, accepted) || matched
    return matched
  }
}

/**
 * Authentication: every spec and `/_devnet/` route needs a known `x-api-key` (401 UNAUTHORIZED
 * otherwise), and the request is decorated with its tenant (`request.tenant`, the key). Public
 * routes (`/health`, `/openapi.json`, `/docs`) and unknown paths need none.
 */
export const auth = fp<{ apiKeys: readonly string[] }>(
  async (app, { apiKeys }) => {
    const isAccepted = createKeyCheck(apiKeys)
    app.decorateRequest('tenant', '')
    // Callback-style hooks (here and in traceId/versioning): no promise per hook per request.
    app.addHook('onRequest', (request, _reply, done) => {
      if (request.is404 || request.routeOptions.config.public) return done()
      // The tenant is the caller's key: made once here, read by the routes (request.tenant).
      request.tenant = String(request.headers[API_KEY_HEADER] ?? '')
      if (request.routeOptions.config.control && app.faults.has('auth.control-api-open')) return done()
      const key = request.headers[API_KEY_HEADER]
      if (key === undefined || key === '') {
        if (app.faults.has('auth.accept-missing-key')) return done()
        return done(clientError('UNAUTHORIZED', `The ${API_KEY_HEADER} header is missing.`))
      }
      if (typeof key !== 'string' || !isAccepted(key)) {
        if (app.faults.has('auth.accept-wrong-key')) return done()
        return done(
          clientError('UNAUTHORIZED', `The ${API_KEY_HEADER} header does not hold a valid API key.`),
        )
      }
      done()
    })
  },
  { name: 'auth', dependencies: ['traceId'] },
)
