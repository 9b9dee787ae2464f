import type { z } from 'zod'
import { type ApiVersion, methodsOf, ROUTES, type RouteDefinition, type RouteId } from '../../spec'

/**
 * The routes the fuzzer generates requests for: the route table of spec/ (the one source of
 * paths, versions, request and response schemas and spec sections), less what cannot be
 * fuzzed without disturbing the run or the world.
 */

/** A version by its short name, as scenarios write it. */
export type FuzzVersion = 'alps' | 'blanc'

/** One route of the table as the fuzzer drives it. */
export type FuzzRoute = {
  id: RouteId
  method: 'GET' | 'POST'
  /** `{name}` for a path parameter. */
  path: string
  versions: readonly FuzzVersion[]
  access: RouteDefinition['access']
  /** The section of the spec (or facts, or DESIGN) it implements, in their words. */
  section: string
  request: {
    body?: z.ZodType | undefined
    params?: z.ZodType | undefined
    querystring?: z.ZodType | undefined
  }
  /** Success answers by status: one schema, or one per version. */
  responses: Record<number, z.ZodType | Partial<Record<FuzzVersion, z.ZodType>>>
}

const SHORT: Record<ApiVersion, FuzzVersion> = { '2026-01.alps': 'alps', '2026-04.blanc': 'blanc' }

/**
 * Routes left out, with why: the control API's writes would change the target under the run
 * (faults, clock, snapshots, prices); a test webhook would go out to a generated URL; the
 * public aliases are the same routes at other paths (`--profile public` maps them).
 */
export const LEFT_OUT: Partial<Record<RouteId, string>> = {
  faultsSet: 'the control API: it would inject faults into the target',
  clockAdvance: 'the control API: it would move the clock under the run',
  quotesReset: 'the control API: it would empty the quote store under the run',
  snapshot: 'the control API: a snapshot of the chains',
  revert: 'the control API: it would revert the chains under the run',
  prices: 'the control API: it would change the prices under the run',
  webhookTest: 'it sends a webhook to the configured (generated) URL, outside the run',
  quotePublic: 'an alias of quote (--profile public sends quote there)',
  submitPublic: 'an alias of submitQuoted (--profile public sends submitQuoted there)',
}

/** A schema of the table's response entry by short version name. */
function responsesOf(route: RouteDefinition): FuzzRoute['responses'] {
  const out: FuzzRoute['responses'] = {}
  for (const [status, entry] of Object.entries(route.responses)) {
    if (typeof (entry as z.ZodType).safeParse === 'function') out[Number(status)] = entry as z.ZodType
    else
      out[Number(status)] = Object.fromEntries(
        Object.entries(entry as Record<ApiVersion, z.ZodType>).map(([v, schema]) => [
          SHORT[v as ApiVersion],
          schema,
        ]),
      )
  }
  return out
}

/** Every route of the table the fuzzer drives, by id (JSON routes with a key; not {@link LEFT_OUT}). */
export const FUZZ_ROUTES: readonly FuzzRoute[] = (Object.entries(ROUTES) as [RouteId, RouteDefinition][])
  .filter(([id, route]) => !(id in LEFT_OUT) && route.access !== 'public' && !route.stream && !route.hidden)
  .map(([id, route]) => ({
    id,
    method: methodsOf(route)[0] as 'GET' | 'POST',
    path: route.path,
    versions: route.versions.map((v) => SHORT[v]),
    access: route.access,
    section: route.section,
    request: {
      body: route.request?.body,
      params: route.request?.params,
      querystring: route.request?.querystring,
    },
    responses: responsesOf(route),
  }))

/**
 * The schema a success answer of a route must match in a version; undefined when the route
 * documents no such status.
 *
 * @example
 * successSchema(routeById('quote'), 200, 'blanc') // BlancRouteResponse
 */
export function successSchema(route: FuzzRoute, status: number, version: FuzzVersion): z.ZodType | undefined {
  const entry = route.responses[status]
  if (!entry) return undefined
  if (typeof (entry as z.ZodType).safeParse === 'function') return entry as z.ZodType
  return (entry as Partial<Record<FuzzVersion, z.ZodType>>)[version]
}

/**
 * A route of {@link FUZZ_ROUTES} by id.
 *
 * @example
 * routeById('withdraw').path // '/withdrawals'
 */
export function routeById(id: string): FuzzRoute {
  const route = FUZZ_ROUTES.find((r) => r.id === id)
  if (!route) throw new Error(`No fuzz route ${id}.`)
  return route
}
