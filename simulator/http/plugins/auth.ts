import { hash, timingSafeEqual } from 'node:crypto'
import type { FastifyRequest } from 'fastify'
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

/** What is wrong with a request's `x-api-key`: none sent, or one that is not accepted. */
export type KeyProblem = 'missing' | 'unknown'

/**
 * The auth plugin's one extension point (the app decoration `authPolicy`), asked only when a key
 * fails: whether that refuses the request (401). The default refuses every problem; a plugin
 * registered after auth may wrap `refuses` (the composition root's fault plugin does).
 */
export type AuthPolicy = { refuses(request: FastifyRequest, problem: KeyProblem): boolean }

declare module 'fastify' {
  interface FastifyInstance {
    /** Whether a key problem refuses a request: see {@link AuthPolicy}. */
    authPolicy: AuthPolicy
  }
}

/**
 * Authentication: every spec and `/_devnet/` route needs a known `x-api-key` (401 UNAUTHORIZED
 * otherwise, unless {@link AuthPolicy} lets the problem pass), and the request is decorated with
 * its tenant (`request.tenant`, the key). Public routes (`/health`, `/openapi.json`, `/docs`) and
 * unknown paths need none.
 */
export const auth = fp<{ apiKeys: readonly string[] }>(
  async (app, { apiKeys }) => {
    const isAccepted = createKeyCheck(apiKeys)
    const policy: AuthPolicy = { refuses: () => true }
    app.decorate('authPolicy', policy)
    app.decorateRequest('tenant', '')
    // Callback-style hooks (here and in traceId/versioning): no promise per hook per request.
    app.addHook('onRequest', (request, _reply, done) => {
      if (request.is404 || request.routeOptions.config.public) return done()
      // The tenant is the caller's key: made once here, read by the routes (request.tenant).
      request.tenant = String(request.headers[API_KEY_HEADER] ?? '')
      const key = request.headers[API_KEY_HEADER]
      if (key === undefined || key === '') {
        if (!policy.refuses(request, 'missing')) return done()
        return done(clientError('UNAUTHORIZED', `The ${API_KEY_HEADER} header is missing.`))
      }
      if (typeof key !== 'string' || !isAccepted(key)) {
        if (!policy.refuses(request, 'unknown')) return done()
        return done(
          clientError('UNAUTHORIZED', `The ${API_KEY_HEADER} header does not hold a valid API key.`),
        )
      }
      done()
    })
  },
  { name: 'auth', dependencies: ['traceId'] },
)
