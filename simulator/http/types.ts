import type { ApiVersion } from '../../spec'
import type { HttpServices } from './domainServices'

/** Configuration of the HTTP app; see `buildApp`. */
export type HttpConfig = {
  /** The accepted `x-api-key` values (at least one). */
  apiKeys: readonly string[]
  /** Reject a request without `x-api-version` (400) instead of serving it as alps. */
  strictVersion?: boolean | undefined
  /** Largest accepted body, in bytes (default 1 MiB); larger answers 413. */
  bodyLimit?: number | undefined
  /** Time a request (headers and body) may take to arrive, in ms (default 30 s); later answers 408. */
  requestTimeoutMs?: number | undefined
  /** Time the request headers may take to arrive, in ms (default and at most `requestTimeoutMs`); later answers 408. */
  headersTimeoutMs?: number | undefined
  /**
   * Check answers marked trusted against their route's schema too (simulator/http/trustedResponse.ts);
   * default: when INTENT_DEVNET_VERIFY_TRUSTED_RESPONSES is set, as in the tests.
   */
  verifyTrustedResponses?: boolean | undefined
  /** Fastify's logger option (default off). */
  logger?: boolean | Record<string, unknown> | undefined
}

/** Why the `x-api-version` header could not be used as sent. */
export type VersionProblem = 'missing' | 'malformed' | 'unknown'

declare module 'fastify' {
  interface FastifyInstance {
    /** The services routes delegate to. */
    services: HttpServices
    /** The app's configuration, as given to `buildApp`. */
    httpConfig: HttpConfig
  }
  interface FastifyRequest {
    /** The caller's tenant: its API key (the auth plugin sets it; '' on public routes). */
    tenant: string
    /** The API version the request is served as (alps when the header is absent or unusable). */
    apiVersion: ApiVersion
    /** Set when the `x-api-version` header was missing, malformed or unknown. */
    versionProblem: VersionProblem | undefined
  }
  interface FastifyContextConfig {
    /** The route's id in the route table (spec/routes, simulator/http/serverRoutes.ts). */
    routeId?: string
    /** The API versions this route serves (default: all). Another version answers 404. */
    versions?: readonly ApiVersion[]
    /** Needs no key and ignores `x-api-version` (`/health`, `/openapi.json`, `/docs`). */
    public?: boolean
    /** The control API (`/_devnet/`): a missing `x-api-version` is fine even in strict mode. */
    control?: boolean
  }
}
