import { API_VERSIONS, type ApiVersion } from '../../spec/common'
import { ROUTES } from '../../spec/routes'
import { checkResponse, findRoute, type RouteDefinition } from '../../spec/routeTable'
import type { CheckDetails } from './recordCheck'
import { safeParseOnce } from './safeParseOnce'

/** One automatic check of an answer: its name, outcome and what it saw, graded by the spec's words. */
export type ResponseCheck = {
  name: string
  ok: boolean
  spec: string
  details: CheckDetails
}

/** Parameters of {@link responseChecks}. */
export type ResponseChecksParameters = {
  /** The request as the scenario writes it (the spec's path, before a profile maps it). */
  method: string
  path: string
  /** The `x-api-version` the request carried, if any (a missing or unknown one: either version's shapes). */
  versionHeader: string | undefined
  status: number
  /** The body parsed as JSON (undefined when it is not JSON). */
  json: unknown
}

/** Where the 5xx rule comes from: the spec shows no 5xx for any request, and HTTP says what one means. */
const NO_5XX_SPEC =
  'Errors (every failure the spec names is a 4xx or a webhook event; RFC 9110 §15.6: a 5xx means the server failed to fulfil an apparently valid request)'

/** Where the error envelope comes from: the spec leaves it open, the public service's envelope per version. */
const ENVELOPE_SPEC =
  'Errors: "Error body format and status codes for validation and authentication failures: not shown." (facts §1: the error envelope of each version)'

/**
 * The checks every answer of a scenario gets besides its own expectations, Schemathesis-style,
 * from the contract's route table: not a 5xx; a success body matching the route's schema for that
 * status and version; an error body in the version's envelope. A route's schema check is MUST
 * where the table cites the spec's own endpoints and SHOULD where it cites the public service or
 * the devnet; the envelope is SHOULD (the spec does not show it). A request to no route of the
 * table (a path the scenario made up on purpose) gets the 5xx check only.
 *
 * @example
 * for (const c of responseChecks({ method: 'POST', path: '/intents/route', versionHeader: '2026-04.blanc', status: 200, json }))
 *   check(c.name, c.ok, c.details, c.spec)
 */
export function responseChecks(parameters: ResponseChecksParameters): ResponseCheck[] {
  const { method, path, status, json } = parameters
  const checks: ResponseCheck[] = [
    {
      name: 'every answer: not a 5xx',
      ok: status < 500,
      spec: NO_5XX_SPEC,
      details: {
        level: 'MUST',
        expected: 'a status below 500',
        actual: status,
        ...(status >= 500 ? { message: `${method} ${path} answered ${status}` } : {}),
      },
    },
  ]
  const found = routeOf(method, path)
  if (!found || status >= 500) return checks
  const route: RouteDefinition = found.route
  if (status < 400 && route.stream) return checks
  const versions = knownVersion(parameters.versionHeader)
  const served = versions.filter((version) => status >= 400 || route.versions.includes(version))
  // A success in a version the route does not serve is the route's own business (scenarios check it).
  if (served.length === 0) return checks
  const problems = served.map((version) => checkResponse(route, status, version, json, safeParseOnce))
  const best = problems.reduce((a, b) => (b.length < a.length ? b : a))
  const ok = best.length === 0
  const which =
    served.length === 1 ? served[0] : `${served.join(' or ')} (the request named no known version)`
  const error = status >= 400
  const level = error ? 'SHOULD' : levelOf(route)
  const name = error ? 'every answer: the error envelope' : `every answer: the ${found.id} schema`
  checks.push({
    // A SHOULD is named `should …`, as the packs' own: it never stops the scenario.
    name: level === 'SHOULD' ? `should ${name}` : name,
    ok,
    spec: error ? ENVELOPE_SPEC : (route.responseSection ?? route.section),
    details: {
      level,
      expected: error ? `the ${which} error envelope` : `${found.id}'s ${status} body in ${which}`,
      actual: ok ? 'conforms' : best.map((p) => `${p.path || '/'}: ${p.message}`).slice(0, 5),
      ...(ok
        ? {}
        : {
            message: `${method} ${path} answered ${status} with a body that breaks ${error ? 'the error envelope' : 'the route schema'}: ${best
              .slice(0, 3)
              .map((p) => `${p.path || '/'} ${p.message}`)
              .join('; ')}`,
          }),
    },
  })
  return checks
}

/** The route table's route of a request, by `METHOD path`: a run asks again for the same ones (114 quotes, polls). */
const routes = new Map<string, ReturnType<typeof findRoute<typeof ROUTES>>>()
function routeOf(method: string, path: string) {
  const key = `${method} ${path}`
  if (routes.has(key)) return routes.get(key)
  const found = findRoute(ROUTES, method, path)
  // Bounded: a run's distinct requests are a few hundred.
  if (routes.size >= 4096) routes.clear()
  routes.set(key, found)
  return found
}

/**
 * MUST where the table cites the spec's own words for the answer (Endpoints, Resources, …),
 * SHOULD where the answer is the public service's or the devnet's (a route whose request the spec
 * shows but whose response it does not names that in `responseSection`).
 */
function levelOf(route: RouteDefinition): 'MUST' | 'SHOULD' {
  return /^(facts|DESIGN|devnet)\b/.test(route.responseSection ?? route.section) ? 'SHOULD' : 'MUST'
}

/** The version a header names, or every version when it names none the spec knows. */
function knownVersion(header: string | undefined): ApiVersion[] {
  const known = API_VERSIONS.find((version) => version === header)
  return known ? [known] : [...API_VERSIONS]
}
