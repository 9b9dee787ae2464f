import fp from 'fastify-plugin'
import { API_VERSION_PATTERN, API_VERSIONS, type ApiVersion } from '../../../spec'
import type { Faults } from '../../faults/faults'
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
export function resolveVersion(header: string | string[] | undefined, faults?: Faults): ResolvedVersion {
  if (header === undefined) {
    const version = faults?.has('version.missing-as-blanc') ? '2026-04.blanc' : '2026-01.alps'
    return { version, problem: 'missing' }
  }
  if (typeof header !== 'string' || !API_VERSION_PATTERN.test(header))
    return {
      version: '2026-01.alps',
      problem: faults?.has('version.accept-malformed') ? undefined : 'malformed',
    }
  if ((API_VERSIONS as readonly string[]).includes(header))
    return { version: header as ApiVersion, problem: undefined }
  if (faults?.has('version.accept-unknown')) return { version: '2026-01.alps', problem: undefined }
  return { version: '2026-01.alps', problem: 'unknown' }
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
 * with 404 in that version's envelope.
 */
export const versioning = fp<{ strictVersion: boolean }>(
  async (app, { strictVersion }) => {
    app.decorateRequest('apiVersion', '2026-01.alps')
    app.decorateRequest('versionProblem', undefined)
    app.addHook('onRequest', (request, _reply, done) => {
      const resolved = resolveVersion(request.headers[VERSION_HEADER], app.faults)
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
      if (
        versions &&
        !versions.includes(request.apiVersion) &&
        !app.faults.has('version.serve-other-version-paths')
      )
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
