import type { FastifyReply, FastifyRequest, preSerializationHookHandler, RouteOptions } from 'fastify'
import fp from 'fastify-plugin'
import type { AlpsRouteResponse, BlancRouteResponse, INTENT_ROUTES } from '../../../spec'
import type { AppPlugin } from '../../http/app'
import { TRACE_ID_HEADER } from '../../http/plugins/traceId'
import { bendAuth } from './auth'
import { bendErrors } from './errors'
import { bendValidation, refuseTenOps } from './input'
import { faultyAlps, faultyBlanc } from './quoteAnswers'
import type { Has } from './types'
import { bendVersioning } from './versioning'

/** Options of {@link httpFaults}. */
export type HttpFaultsOptions = {
  /** The fault registry (`/_devnet/faults` changes it; the domain's fault decorators read it too). */
  faults: Has
}

/** The quote routes of the table, whose answers the `quotes.*` answer faults change. */
const QUOTE_ROUTES = new Set<string>(['quote', 'quotePublic'] satisfies (keyof typeof INTENT_ROUTES)[])

/** `quotes.*` answer faults, a preSerialization hook of the quote routes: the answer as shaped, changed in place (so still trusted: trustedResponse.ts). */
function quoteAnswerFaults(faults: Has): preSerializationHookHandler<unknown> {
  return (request: FastifyRequest, reply: FastifyReply, payload, done) => {
    if (reply.statusCode < 300 && typeof payload === 'object' && payload !== null) {
      const blanc =
        request.routeOptions.config.routeId === 'quotePublic' || request.apiVersion === '2026-04.blanc'
      if (blanc) faultyBlanc(payload as BlancRouteResponse, faults)
      else faultyAlps(payload as AlpsRouteResponse, faults)
    }
    done(null, payload)
  }
}

/** Adds a route-level hook to a route's options, after any it has. */
function addRouteHook<K extends 'preHandler' | 'preSerialization'>(
  route: RouteOptions,
  name: K,
  hook: NonNullable<RouteOptions[K]>,
): void {
  const existing = route[name]
  route[name] = [...(existing ? [existing].flat() : []), ...[hook].flat()] as RouteOptions[K]
}

/**
 * Every HTTP fault of the catalogue in one plugin, registered by the composition root
 * (startSimulator) through buildApp's `plugins`, never known to the HTTP plugins it bends:
 * - auth, versioning, errors and validation: it wraps the extension point each exposes
 *   (`authPolicy`, `versionPolicy`, `errorPolicy`, `validationPolicy`), asked by the plugin only
 *   where a rule decides (a key problem, a version problem, an error, a failed schema);
 * - `errors.no-trace-id`: an onSend hook after traceId's, removing the header;
 * - `limits.refuse-10-ops`: a preHandler of the routes with a body (after validation);
 * - the `quotes.*` answer faults: a preSerialization hook of the quote routes.
 * With every fault off, a request that breaks no rule pays one onSend hook, and on the routes
 * above one preHandler and one preSerialization, each a registry lookup.
 * Wrapped with fastify-plugin: its hooks and wrappers apply to the whole app, not a child scope.
 *
 * @example
 * await buildApp(config, services, { plugins: [(app) => app.register(httpFaults, { faults })] })
 */
export const httpFaults = fp<HttpFaultsOptions>(
  async (app, { faults }) => {
    bendAuth(app.authPolicy, faults)
    bendVersioning(app.versionPolicy, faults)
    bendErrors(app.errorPolicy, faults)
    bendValidation(app.validationPolicy, faults)
    app.addHook('onSend', (_request, reply, payload, done) => {
      if (faults.has('errors.no-trace-id')) reply.removeHeader(TRACE_ID_HEADER)
      done(null, payload)
    })
    const tenOps = refuseTenOps(faults)
    const quoteAnswers = quoteAnswerFaults(faults)
    app.addHook('onRoute', (route) => {
      if (route.schema?.body !== undefined) addRouteHook(route, 'preHandler', tenOps)
      if (QUOTE_ROUTES.has(String(route.config?.routeId)))
        addRouteHook(route, 'preSerialization', quoteAnswers)
    })
  },
  { name: 'httpFaults', dependencies: ['traceId', 'errors', 'auth', 'versioning'] },
)

/**
 * {@link httpFaults} over a registry, as one of buildApp's or startService's `plugins`.
 *
 * @example
 * await startService({ port: 0, services, plugins: [withHttpFaults(faults)] })
 */
export const withHttpFaults =
  (faults: Has): AppPlugin =>
  (app) =>
    app.register(httpFaults, { faults })
