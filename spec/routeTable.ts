import type { z } from 'zod'
import { API_VERSIONS, type ApiVersion } from './common'
import { AlpsErrorEnvelope, BlancErrorEnvelope } from './errors'

/** An HTTP method a route of the table answers. */
export type RouteMethod = 'GET' | 'POST' | 'HEAD'

/** A version as the table names it (`2026-04.blanc`) or as scenarios do (`blanc`). */
export type VersionName = ApiVersion | 'alps' | 'blanc'

/**
 * A part of the devnet's state its control API changes on its own: token prices (`POST
 * /_devnet/prices`) or the clock (`POST /_devnet/clock/advance`, every chain's time with it).
 */
export type DevnetStatePart = 'prices' | 'clock'

/** A response schema, the same in every version, or one per version. */
export type ResponseSchema = z.ZodType | { readonly [V in ApiVersion]?: z.ZodType }

/**
 * One route of the API: how it is called, what it answers, and where the spec says so. The
 * simulator registers its Fastify routes from these, the OpenAPI document is generated from
 * them, and the conformance suite checks every answer against them ({@link checkResponse}).
 */
export type RouteDefinition = {
  /** `GET`, `POST`, or several (`/docs` answers `GET` and `HEAD`). */
  method: RouteMethod | readonly RouteMethod[]
  /** The path, `{name}` for a path parameter (OpenAPI style), `*` for a wildcard tail. */
  path: string
  /** The versions that serve it (a request of another version answers 404). */
  versions: readonly ApiVersion[]
  /**
   * Who may call it: `key` (a known `x-api-key`), `control` (the devnet's `/_devnet/`: a key; a
   * missing `x-api-version` is fine even in strict mode) or `public` (no key, no version).
   */
  access: 'key' | 'control' | 'public'
  /** The section of the spec (or facts, or DESIGN) it implements, in their words. */
  section: string
  /** One line for the OpenAPI document. */
  summary: string
  /** The OpenAPI document's group. */
  tag: string
  /** Kept out of the OpenAPI document (the explorer page, the docs page and their files). */
  hidden?: boolean
  /** The request's parts, each validated before the handler runs. */
  request?: {
    body?: z.ZodType
    querystring?: z.ZodType
    params?: z.ZodType
    headers?: z.ZodType
  }
  /** The answers by status (success only: errors answer the version's envelope, {@link ERROR_ENVELOPES}). */
  responses: { readonly [status: number]: ResponseSchema }
  /**
   * Where `responses` come from when not from `section`: the spec shows the request but not the
   * answer ("Response: not shown"), and the statuses and bodies are the public service's.
   */
  responseSection?: string
  /** Not JSON: the answer is a stream or a page (`text/event-stream`, HTML), checked by status only. */
  stream?: boolean
  /**
   * A public alias of another route (DESIGN: "serve the public blanc paths as aliases of the
   * spec's"): which route, for which version, and the path parameters it takes in the body.
   */
  aliasOf?: { route: string; version?: 'alps' | 'blanc'; pathParamsInBody?: readonly string[] }
  /** Where the public service writes chain ids as CAIP-2 (`eip155:<n>`) instead of numbers. */
  caip2?: { request?: readonly string[]; response?: readonly string[] }
  /**
   * The one part of the devnet's state a request of this control route changes; a control
   * route that changes state without it (faults, snapshot, revert, the quote store) may change
   * any.
   */
  changes?: DevnetStatePart
  /**
   * The parts of the devnet's state neither its answers nor what the target does after them
   * depend on (a deposit to an account registered here is priced: the register route depends on
   * prices). Without it a route may depend on every part. The conformance runner runs a scenario
   * beside one that changes a part only when none of its requests go to a route that may depend
   * on that part (conformance/runner/observedState.ts).
   */
  independentOf?: readonly DevnetStatePart[]
}

/** Every version: what a route serves unless it says otherwise. */
export const ALL_VERSIONS: readonly ApiVersion[] = API_VERSIONS
/** Version alps only (spec: Versioning §3). */
export const ALPS_ONLY = ['2026-01.alps'] as const satisfies readonly ApiVersion[]
/** Version blanc only (spec: Versioning §3). */
export const BLANC_ONLY = ['2026-04.blanc'] as const satisfies readonly ApiVersion[]

/** The error envelope of each version (spec: Errors; facts §1): every 4xx and 5xx answer is one. */
export const ERROR_ENVELOPES = {
  '2026-01.alps': AlpsErrorEnvelope,
  '2026-04.blanc': BlancErrorEnvelope,
} as const satisfies Record<ApiVersion, z.ZodType>

/**
 * Checks a table at definition: each entry's type is kept (`satisfies`), so handlers and
 * clients are typed by the route they serve.
 *
 * @example
 * const ROUTES = defineRoutes({ health: { method: 'GET', path: '/health', ... } })
 */
export function defineRoutes<const T extends Record<string, RouteDefinition>>(routes: T): T {
  return routes
}

/** The full version name of a short or full one. */
export function toApiVersion(version: VersionName): ApiVersion {
  if (version === 'alps') return '2026-01.alps'
  if (version === 'blanc') return '2026-04.blanc'
  return version
}

/** The methods of a route, as a list. */
export function methodsOf(route: RouteDefinition): readonly RouteMethod[] {
  return typeof route.method === 'string' ? [route.method] : route.method
}

/**
 * The route's path as Fastify writes it (`/intents/:intentId/submit`).
 *
 * @example
 * toFastifyPath('/intents/{intentId}/submit') // '/intents/:intentId/submit'
 */
export function toFastifyPath(path: string): string {
  return path.replace(/\{(\w+)\}/g, ':$1')
}

const compiled = new WeakMap<RouteDefinition, RegExp>()

/** Whether a concrete path (no query) is one of the route's. */
function pathMatches(route: RouteDefinition, path: string): boolean {
  let pattern = compiled.get(route)
  if (!pattern) {
    const source = route.path
      .split(/(\{\w+\}|\*)/)
      .map((part) =>
        part === '*' ? '.*' : /^\{\w+\}$/.test(part) ? '[^/]+' : part.replace(/[.*+?^$()|[\]\\]/g, '\\$&'),
      )
      .join('')
    pattern = new RegExp(`^${source}$`)
    compiled.set(route, pattern)
  }
  return pattern.test(path)
}

/**
 * The route of a table a request goes to, by method and path (the query is ignored), with its
 * id; a literal segment wins over a parameter (`/webhooks/events/resend-failed` over
 * `/webhooks/events/{id}`), as in Fastify. Undefined when no route matches.
 *
 * @example
 * findRoute(ROUTES, 'GET', '/intents/abc?x=1') // { id: 'blancStatus', route: ROUTES.blancStatus }
 */
export function findRoute<T extends Record<string, RouteDefinition>>(
  table: T,
  method: string,
  path: string,
): { id: keyof T & string; route: T[keyof T] } | undefined {
  const bare = path.split('?')[0] ?? path
  let best: { id: keyof T & string; route: T[keyof T]; params: number } | undefined
  for (const [id, route] of Object.entries(table) as [keyof T & string, T[keyof T]][]) {
    if (!methodsOf(route).includes(method.toUpperCase() as RouteMethod) || !pathMatches(route, bare)) continue
    const params = (route.path.match(/\{\w+\}|\*/g) ?? []).length
    if (!best || params < best.params) best = { id, route, params }
  }
  return best && { id: best.id, route: best.route }
}

/**
 * The schema an answer of a route must match: the success schema of that status and version,
 * the version's error envelope for a 4xx or 5xx, undefined when the table gives none (a status
 * the route does not document, or a stream).
 *
 * @example
 * responseSchemaOf(ROUTES.quote, 200, 'blanc') // BlancRouteResponse
 */
export function responseSchemaOf(
  route: RouteDefinition,
  status: number,
  version: VersionName,
): z.ZodType | undefined {
  const full = toApiVersion(version)
  if (status >= 400) return ERROR_ENVELOPES[full]
  const schema = route.responses[status]
  if (!schema) return undefined
  if (isZodType(schema)) return schema
  return schema[full]
}

function isZodType(schema: ResponseSchema): schema is z.ZodType {
  return typeof (schema as { safeParse?: unknown }).safeParse === 'function'
}

/** One problem {@link checkResponse} found: where in the body (a JSON pointer) and what. */
export type ResponseDiagnostic = { path: string; message: string }

/**
 * Checks one answer of a route against the table: the status is one the route documents (or
 * an error), and the body matches the schema of that status in that version (the version's
 * error envelope for an error). No diagnostics: the answer conforms.
 *
 * @example
 * const problems = checkResponse(ROUTES.quote, 200, 'blanc', await res.json())
 * if (problems.length) console.log(problems.map((p) => `${p.path}: ${p.message}`).join('\n'))
 */
export function checkResponse(
  route: RouteDefinition,
  status: number,
  version: VersionName,
  body: unknown,
  /** How the body is validated (a caller that validates one body several times may remember results). */
  safeParse: (schema: z.ZodType, body: unknown) => ReturnType<z.ZodType['safeParse']> = (schema, value) =>
    schema.safeParse(value),
): ResponseDiagnostic[] {
  const full = toApiVersion(version)
  if (status < 400 && route.stream) return []
  if (status < 400 && !(status in route.responses)) {
    const documented = Object.keys(route.responses).join(', ') || 'none'
    return [
      { path: '', message: `status ${status} is not one ${route.path} answers (documented: ${documented})` },
    ]
  }
  if (status < 400 && !route.versions.includes(full))
    return [
      { path: '', message: `${route.path} is not served by version ${full}, yet it answered ${status}` },
    ]
  const schema = responseSchemaOf(route, status, full)
  if (!schema) return []
  const result = safeParse(schema, body)
  if (result.success) return []
  return result.error.issues.map((issue) => ({
    path: issue.path.length
      ? `/${issue.path.map((p) => String(p).replaceAll('~', '~0').replaceAll('/', '~1')).join('/')}`
      : '',
    message: issue.message,
  }))
}
