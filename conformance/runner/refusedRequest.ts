import { ROUTES } from '../../spec/routes'
import { findRoute, type RouteDefinition, toApiVersion } from '../../spec/routeTable'
import type { LoadedScenario } from '../scenario/loadScenarios'
import type { HttpStep, StatusExpectation } from '../scenario/schema'
import { INTERPRETED } from './safeParseOnce'
import { stepVersion, VERSION_HEADERS } from './versionHeaders'

/**
 * Why the target must refuse an HTTP step's request for what the request is, before it reads
 * any state (prices, the clock, balances, other clients' intents), or undefined. Only a step
 * that accepts nothing but a 4xx ({@link onlyRefusals}) qualifies, and its request, read
 * against the spec's route table (spec/routes), must be one of:
 * - on a path no route serves (or not for the version it sends): not found;
 * - without the key, or with a wrong one (`omit`, `wrong`, an empty value, `${apiKey}` with
 *   more after it), on a route that needs one (every route but the public `/health`):
 *   refused by authentication;
 * - with an `x-api-version` that names no version (`{raw}`), on a route that needs one;
 * - with a body that is not JSON, or a literal body (no `${…}`) the route's request schema
 *   refuses (a missing field, a wrong type, a negative amount): refused by validation;
 * - with an oversized body (`oversizeBytes`): refused for its size.
 * A step without its own version is judged for both versions (the run's `--version` may pick
 * either): it qualifies only when refused in each.
 *
 * Such a step's verdict is the same at any price and any time: a target that answers as the
 * spec says refuses it before pricing or timing anything, and one that wrongly accepts it
 * fails the step whatever it answers then, except a 4xx that happens to match, as it would at
 * another price or time. It changes nothing on the target either (a target that wrongly
 * accepts it fails the step, so the run fails anyway). A refusal that depends on state (a
 * valid request refused for its price: a 422 "no route"; a quote submitted after it expired;
 * a withdrawal beyond the balance) never qualifies: its request is valid by the table.
 *
 * @example
 * refusedByRequest({ http: { method: 'POST', path: '/intents/route', apiKey: 'omit' }, expect: { status: 401 } }, scenario) // 'refused by authentication'
 */
export function refusedByRequest(
  step: HttpStep,
  scenario: Pick<LoadedScenario, 'requires'>,
): string | undefined {
  const { http } = step
  if (!onlyRefusals(step) || step.poll || step.prerequisite || step.needs) return undefined
  const versions = new Set([stepVersion(step, scenario, 'alps'), stepVersion(step, scenario, 'blanc')])
  const reasons = [...versions].map((version) => refusedAs(http, version))
  return reasons.every((reason) => reason !== undefined) ? reasons[0] : undefined
}

/** Why {@link refusedByRequest} holds for the step's request sent as `version`, or undefined. */
function refusedAs(http: HttpStep['http'], version: NonNullable<HttpStep['http']['version']>) {
  const path = http.path.split('?')[0]!
  const found = findRoute(ROUTES, http.method, path)
  // A `${…}` in the path may become more than one segment: no verdict on the route.
  if (!found) return path.includes('${') ? undefined : 'no route serves its path'
  const route: RouteDefinition = found.route
  if (typeof version === 'string' && version !== 'omit' && !route.versions.includes(toApiVersion(version)))
    return `the ${version} version does not serve its path`
  if (route.access === 'public') return undefined
  if (wrongKey(http.apiKey)) return 'refused by authentication'
  if (typeof version === 'object' && !Object.values<string>(VERSION_HEADERS).includes(version.raw))
    if (route.access === 'key') return 'its x-api-version names no version'
  if (http.oversizeBytes !== undefined) return 'its body is oversized'
  // Interpreted (jitless) like the answers' checks: the same verdict, without compiling a parser per schema.
  const schema = route.request?.body
  if (http.rawBody !== undefined) {
    let value: unknown
    try {
      value = JSON.parse(http.rawBody)
    } catch {
      return 'its body is not JSON'
    }
    if (schema && !http.rawBody.includes('${') && !schema.safeParse(value, INTERPRETED).success)
      return "its body breaks the route's request schema"
    return undefined
  }
  if (schema && http.body !== undefined && !JSON.stringify(http.body).includes('${'))
    if (!schema.safeParse(http.body, INTERPRETED).success) return "its body breaks the route's request schema"
  return undefined
}

/** Whether a step's key is certainly not the run's: none, `wrong`, empty, or the run's with more after it. */
function wrongKey(apiKey: HttpStep['http']['apiKey']): boolean {
  if (apiKey === 'omit' || apiKey === 'wrong') return true
  if (typeof apiKey !== 'object') return false
  const own = '$' + '{apiKey}' // the scenario's `${apiKey}`, as written (not a template)
  return apiKey.value === '' || (apiKey.value.startsWith(own) && apiKey.value !== own)
}

/**
 * Whether an HTTP step accepts nothing but a 4xx: its `status`, each of its `anyOf`
 * alternatives and its `should` name statuses, all of them 4xx (a step with no status, a 2xx,
 * 3xx or 5xx among them, or `{not: …}` accepts more).
 */
export function onlyRefusals(step: Pick<HttpStep, 'expect'>): boolean {
  const { expect } = step
  const parts = [expect, ...(expect.anyOf ?? [])]
  const own = expect.status !== undefined
  // Without a status of its own, every alternative must give one.
  if (!own && (!expect.anyOf || expect.anyOf.some((alternative) => alternative.status === undefined)))
    return false
  const should = expect.should
  const extra = should ? [should, ...(should.anyOf ?? [])] : []
  return [...parts, ...extra].every((part) => part.status === undefined || refusalsOnly(part.status))
}

/** Whether a status expectation names only 4xx codes or the 4xx class. */
function refusalsOnly(status: StatusExpectation): boolean {
  if (typeof status === 'object' && !Array.isArray(status)) return false
  const codes = Array.isArray(status) ? status : [status]
  return codes.every((code) => (typeof code === 'number' ? code >= 400 && code < 500 : code === '4xx'))
}
