import type { LoadedScenario } from '../scenario/loadScenarios'
import type { HttpStep } from '../scenario/schema'
import { excerpt } from './excerpt'
import { applyProfile } from './profile'
import type { ScenarioContext } from './scenarioContext'
import type { HttpExcerpt } from './types'
import { type StepVersion, VERSION_HEADERS } from './versionHeaders'

/** The request an HTTP step sends. */
export type HttpRequest = {
  method: string
  url: string
  headers: Record<string, string>
  body: string | undefined
  /** Response fields the profile says may carry CAIP-2 chain ids (read as numbers). */
  caip2Response: string[]
}

/**
 * The request of an (interpolated) HTTP step: the run's API key and the step's version as
 * headers unless the step says otherwise, its body (JSON, raw, or padded to a size) and headers,
 * at the path the run's profile maps the spec's path to (`--profile`).
 *
 * @example
 * const request = buildHttpRequest({ method: 'GET', path: '/health', apiKey: 'default' }, scenario, context)
 */
export function buildHttpRequest(
  http: HttpStep['http'],
  scenario: LoadedScenario,
  context: ScenarioContext,
  /** The version the step speaks (versionHeaders.ts stepVersion); by default its own, its scenario's, the run's or blanc. */
  speaks: StepVersion = http.version ?? scenario.requires.version ?? context.version ?? 'blanc',
): HttpRequest {
  const headers: Record<string, string> = {}
  if (http.apiKey === 'default') headers['x-api-key'] = context.apiKey
  else if (http.apiKey === 'wrong') headers['x-api-key'] = `${context.apiKey}-wrong`
  else if (typeof http.apiKey === 'object') headers['x-api-key'] = http.apiKey.value
  const version = speaks
  if (typeof version === 'object') headers['x-api-version'] = version.raw
  else if (version !== 'omit') headers['x-api-version'] = VERSION_HEADERS[version]

  const jsonBody = http.rawBody === undefined && http.oversizeBytes === undefined
  const mapped = applyProfile(context.profile ?? { name: 'spec', routes: [] }, {
    method: http.method,
    path: http.path,
    version: version === 'alps' || version === 'blanc' ? version : version === 'omit' ? undefined : 'other',
    body: jsonBody ? http.body : undefined,
  })
  if (mapped.mapping !== undefined) context.mappingsApplied?.add(mapped.mapping)
  let body: string | undefined
  if (http.rawBody !== undefined) body = http.rawBody
  else if (http.oversizeBytes !== undefined) body = oversizeBody(http.oversizeBytes)
  else if (mapped.body !== undefined) body = JSON.stringify(mapped.body)
  if (body !== undefined) headers['content-type'] = 'application/json'
  Object.assign(headers, http.headers)

  return {
    method: mapped.method,
    url: joinUrl(context.target, mapped.path),
    headers,
    body,
    caip2Response: mapped.caip2Response,
  }
}

/** Oversized bodies by size: the same text every time, built once (see {@link oversizeBody}). */
const oversizeBodies = new Map<number, string>()

/**
 * A JSON body of `size` bytes (`{"padding":"xxx…"}`, the very text `JSON.stringify` makes of
 * that object), built once per size and flat: a run sends the 4 MiB one twice, and building it
 * (a repeat, then stringifying and slicing 4 MiB for the report's excerpt) cost ~25 ms of CPU
 * each time.
 */
function oversizeBody(size: number): string {
  let body = oversizeBodies.get(size)
  if (body === undefined) {
    body = `{"padding":"${'x'.repeat(Math.max(0, size - 14))}"}`
    // Flattened now (a concatenation is a rope until read), so each send and excerpt reads it as it is.
    body.charCodeAt(body.length >> 1)
    oversizeBodies.set(size, body)
  }
  return body
}

/** A target's base URL split once: its origin and its path without a trailing slash. */
const bases = new Map<string, { origin: string; prefix: string }>()

/**
 * A path that the URL parser keeps as it is after an origin: letters, digits and `-._~/`, a
 * query of those and `=&,:`, no `.` or `..` segment, no `//` (nothing to encode or resolve).
 */
const PLAIN_PATH = /^(?!.*\/\.{1,2}(?:[/?]|$))(?!\/\/)\/[\w\-.~/]*(?:\?[\w\-.~/=&,:]*)?$/

/** The target's base URL and a path: a base URL with a path of its own keeps it (`http://h/api` + `/quotes`). */
export function joinUrl(target: string, path: string): string {
  let base = bases.get(target)
  if (base === undefined) {
    const parsed = new URL(target)
    base = { origin: parsed.origin, prefix: parsed.pathname.replace(/\/$/, '') }
    bases.set(target, base)
  }
  // Every request of a run joins the same base: the URL parser's result is known for a plain
  // path (the same string; joinUrl.test.ts compares both on such paths), any other goes through it.
  if (base.origin !== 'null' && PLAIN_PATH.test(path)) return `${base.origin}${base.prefix}${path}`
  return new URL(`${base.prefix}${path}`, base.origin).toString()
}

/** A request as a report keeps it: the run's API key redacted, the body cut to a few KB. */
export function requestExcerpt(request: HttpRequest, apiKey: string): HttpExcerpt['request'] {
  const headers = Object.fromEntries(
    Object.entries(request.headers).map(([k, v]) => [
      k,
      k === 'x-api-key' && v.startsWith(apiKey) ? `<api key>${v.slice(apiKey.length)}` : v,
    ]),
  )
  return {
    method: request.method,
    url: request.url,
    headers,
    body: request.body === undefined ? undefined : excerpt(request.body),
  }
}
