import Fastify, { type FastifyInstance, type FastifyServerOptions } from 'fastify'
import type { ZodTypeProvider } from 'fastify-type-provider-zod'
import { handleClientError, handleConnectionErrors } from './connectionErrors'
import type { HttpServices } from './domainServices'
import { interpretedSerializerCompiler } from './interpretedZod'
import { limitJsonBodies } from './jsonLimits'
import { auth } from './plugins/auth'
import { errors, frameworkErrors } from './plugins/errors'
import { docsHandlers, registerOpenApi } from './plugins/openapi'
import { generateTraceId, traceId } from './plugins/traceId'
import { versioning } from './plugins/versioning'
import { registerRoutes } from './registerRoutes'
import { depositProcessorHandlers } from './routes/depositProcessor'
import { devnetHandlers } from './routes/devnet'
import { explorerHandlers } from './routes/explorer'
import { intentHandlers } from './routes/intents'
import { SERVER_ROUTES } from './serverRoutes'
import { trustingSerializerCompiler } from './trustedResponse'
import type { HttpConfig } from './types'
import { createValidationPolicy, createValidatorCompiler } from './validation'

type CompilersFactory = NonNullable<NonNullable<FastifyServerOptions['schemaController']>['compilersFactory']>

/** A registration on the app, e.g. `(app) => app.register(plugin, options)`. */
export type AppPlugin = (app: FastifyInstance) => PromiseLike<unknown>

/** Options of {@link buildApp} beyond config and services. */
export type BuildAppOptions = {
  /**
   * Plugins registered after the app's own (trace ids, errors, auth, versioning) and before its
   * routes: their hooks run after the app's own in each phase, their `onRoute` hooks see every
   * route, and they may wrap the plugins' policies (`authPolicy`, `versionPolicy`, `errorPolicy`,
   * `validationPolicy`). The composition root adds the HTTP fault plugin here
   * (simulator/faultInjection/http); none by default.
   */
  plugins?: readonly AppPlugin[] | undefined
}

/** Default largest body: 1 MiB. */
export const DEFAULT_BODY_LIMIT = 1024 * 1024
/** Default time a request (headers and body) may take to arrive: 30 s. */
export const DEFAULT_REQUEST_TIMEOUT_MS = 30_000

/**
 * Node's server timeouts for a config: the whole request (headers and body) within
 * `requestTimeoutMs`, the headers within `headersTimeoutMs` (never more than the request), both
 * checked often enough that a timeout fires within a quarter of its length (at most 1 s late).
 */
export function serverTimeouts(config: Pick<HttpConfig, 'requestTimeoutMs' | 'headersTimeoutMs'>): {
  requestTimeout: number
  headersTimeout: number
  connectionsCheckingInterval: number
} {
  const requestTimeout = config.requestTimeoutMs ?? DEFAULT_REQUEST_TIMEOUT_MS
  const headersTimeout =
    requestTimeout === 0
      ? (config.headersTimeoutMs ?? 0)
      : Math.min(config.headersTimeoutMs ?? requestTimeout, requestTimeout)
  const shortest = Math.min(...[requestTimeout, headersTimeout].filter((ms) => ms > 0), 4_000)
  return {
    requestTimeout,
    headersTimeout,
    connectionsCheckingInterval: Math.max(50, Math.floor(shortest / 4)),
  }
}

/**
 * Builds the service's Fastify app: trace ids, errors, auth, versioning and validation as
 * plugins, then every route of the table ({@link SERVER_ROUTES}) with its handler. The app is not listening; call `listen` or `inject`.
 *
 * @example
 * const app = await buildApp({ apiKeys: ['devnet-key'] }, services)
 * const res = await app.inject({ method: 'GET', url: '/health' })
 *
 * @param config Keys, version strictness, body limit, logger.
 * @param services The services routes delegate to (built by startSimulator's createServices).
 * @param options Plugins to register before the routes.
 * @returns The app, its routes registered.
 */
export async function buildApp(
  config: HttpConfig,
  services: HttpServices,
  options: BuildAppOptions = {},
): Promise<FastifyInstance> {
  const timeouts = serverTimeouts(config)
  const validationPolicy = createValidationPolicy()
  // zod validates every request and serializes every response (the two compilers below), so
  // they are the app's from its construction: Fastify then never loads its default ones, ajv
  // and fast-json-stringify (~110 CommonJS modules it would build at every start, unused).
  const validatorCompiler = createValidatorCompiler(validationPolicy)
  // Bodies a service marked with trustResponse skip the second zod pass; every other body is
  // validated, by zod's interpreted parse (interpretedZod.ts).
  const serializer = trustingSerializerCompiler(interpretedSerializerCompiler, config.verifyTrustedResponses)
  const app = Fastify({
    logger: config.logger ?? false,
    bodyLimit: config.bodyLimit ?? DEFAULT_BODY_LIMIT,
    genReqId: generateTraceId,
    requestIdHeader: false,
    requestTimeout: timeouts.requestTimeout,
    // The timeouts go to Node's server constructor: Fastify sets `requestTimeout` only after it,
    // and Node's default headersTimeout (60 s) then exceeds it, so Node swaps the two and the
    // body of a slow request is given 60 s instead (node_http_parser.cc, ConnectionsList::Expired).
    http: timeouts,
    frameworkErrors,
    clientErrorHandler: handleClientError,
    schemaController: {
      // What setValidatorCompiler and setSerializerCompiler install, given before Fastify picks
      // its defaults (its types name ajv's factories; any compiler goes, as with those setters).
      compilersFactory: {
        buildValidator: () => validatorCompiler,
        buildSerializer: () => serializer,
      } as unknown as CompilersFactory,
    },
  }).withTypeProvider<ZodTypeProvider>()
  handleConnectionErrors(app)

  app.decorate('services', services)
  app.decorate('httpConfig', config)
  app.decorate('validationPolicy', validationPolicy)
  // JSON only: any other content type answers 400 in the envelope rather than being parsed as text.
  app.removeContentTypeParser(['text/plain'])
  limitJsonBodies(app)

  await app.register(traceId)
  await app.register(errors)
  await app.register(auth, { apiKeys: config.apiKeys })
  await app.register(versioning, { strictVersion: config.strictVersion ?? false })
  for (const plugin of options.plugins ?? []) await plugin(app)

  await registerOpenApi(app)

  // Every route comes from the table (spec/routes, the explorer's and the docs'), each with the
  // handler of its id: a route without a handler, or a handler without a route, throws here.
  registerRoutes(app, SERVER_ROUTES, {
    ...intentHandlers(app),
    ...depositProcessorHandlers(app),
    ...devnetHandlers(app),
    ...explorerHandlers(app),
    ...docsHandlers(app),
  })
  return app
}
