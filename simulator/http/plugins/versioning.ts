import type { FastifyRequest } from 'fastify'
import fp from 'fastify-plugin'
import { API_VERSION_PATTERN, API_VERSIONS, type ApiVersion } from '../../../spec'
import { type ApiError, clientError } from '../errorCodes'
import type { VersionProblem } from '../types'

/** The header that pins the API version (spec: Versioning §1). */
export const VERSION_HEADER = 'x-api-version'

/** What {@link resolveVersion} makes of an `x-api-version` header. */
export type ResolvedVersion = { version: ApiVersion; problem: VersionProblem | undefined }

/**
 * Resolves the version a request is served as. A missing, malformed or unknown header resolves
 * to alps (the default version) with the problem noted; whether the problem is an error is the
 * caller's decision. Error envelopes follow this too, so a bad header gets the alps envelope.
 * An empty header is present, and malformed (it does not match YYYY-MM.name), not missing.
 */
export function resolveVersion(header: string | string[] | undefined): ResolvedVersion {
  if (header === undefined) return { version: '2026-01.alps', problem: 'missing' }
  if (typeof header !== 'string' || !API_VERSION_PATTERN.test(header))
    return { version: '2026-01.alps', problem: 'malformed' }
  if ((API_VERSIONS as readonly string[]).includes(header))
    return { version: header as ApiVersion, problem: undefined }
  return { version: '2026-01.alps', problem: 'unknown' }
}

/**
 * The versioning plugin's extension point (the app decoration `versionPolicy`): how a header
 * resolves (every request, and again for an error's envelope: errors.ts) and whether a route
 * that serves `versions` serves a request (asked only when its version is not one of them). The
 * defaults are {@link resolveVersion} and no; a plugin registered after versioning may wrap them
 * (the composition root's fault plugin does).
 */
export type VersionPolicy = {
  resolve(header: string | string[] | undefined): ResolvedVersion
  servesOther(request: FastifyRequest, versions: readonly ApiVersion[]): boolean
}

declare module 'fastify' {
  interface FastifyInstance {
    /** How `x-api-version` resolves, and whether a route serves another version: see {@link VersionPolicy}. */
    versionPolicy: VersionPolicy
  }
}

const known = `Known versions: ${API_VERSIONS.join(', ')}.`

/** The error a version problem answers with, or undefined when the request may go on. */
export function versionError(
  header: string | string[] | undefined,
  problem: VersionProblem | undefined,
  requireHeader: boolean,
): ApiError | undefined {
  const data = { header: VERSION_HEADER, knownVersions: [...API_VERSIONS] }
  switch (problem) {
    case undefined:
      return undefined
    case 'missing':
      return requireHeader
        ? clientError('VALIDATION_ERROR', `The ${VERSION_HEADER} header is required. ${known}`, { data })
        : undefined
    case 'malformed':
      return clientError(
        'VALIDATION_ERROR',
        `The ${VERSION_HEADER} header ${JSON.stringify(header)} is malformed: it must match YYYY-MM.name. ${known}`,
        { data },
      )
    case 'unknown':
      return clientError(
        'VALIDATION_ERROR',
        `The ${VERSION_HEADER} ${JSON.stringify(header)} is not known. ${known}`,
        {
          data,
        },
      )
  }
}

/**
 * Versioning: resolves `x-api-version` on every request (onRequest, never failing, so even a
 * 401 gets the right envelope), then after authentication (preParsing) rejects a missing header
 * in strict mode, a malformed or unknown one always, and a route the version does not serve
 * with 404 in that version's envelope ({@link VersionPolicy} may bend both).
 */
export const versioning = fp<{ strictVersion: boolean }>(
  async (app, { strictVersion }) => {
    const policy: VersionPolicy = { resolve: resolveVersion, servesOther: () => false }
    app.decorate('versionPolicy', policy)
    app.decorateRequest('apiVersion', '2026-01.alps')
    app.decorateRequest('versionProblem', undefined)
    app.addHook('onRequest', (request, _reply, done) => {
      const resolved = policy.resolve(request.headers[VERSION_HEADER])
      request.apiVersion = resolved.version
      request.versionProblem = resolved.problem
      done()
    })
    app.addHook('preParsing', (request, _reply, payload, done) => {
      const config = request.routeOptions.config
      if (request.is404 || config.public) return done(null, payload)
      const error = versionError(
        request.headers[VERSION_HEADER],
        request.versionProblem,
        strictVersion && !config.control,
      )
      if (error) return done(error)
      const versions = config.versions
      if (versions && !versions.includes(request.apiVersion) && !policy.servesOther(request, versions))
        return done(
          clientError(
            'NOT_FOUND',
            `${request.method} ${request.routeOptions.url} is not served by version ${request.apiVersion}; it is served by ${versions.join(', ')}.`,
          ),
        )
      done(null, payload)
    })
  },
  { name: 'versioning', dependencies: ['traceId'] },
)
