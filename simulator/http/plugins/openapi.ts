import swagger from '@fastify/swagger'
import Fastify, { type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify'
import fp from 'fastify-plugin'
import { jsonSchemaTransform, jsonSchemaTransformObject } from 'fastify-type-provider-zod'
import { z } from 'zod'
import { API_VERSIONS } from '../../../spec'
import { API_KEY_HEADER } from './auth'
import { VERSION_HEADER } from './versioning'

const VersionHeader = z.object({
  [VERSION_HEADER]: z
    .enum(API_VERSIONS)
    .optional()
    .describe(
      'API version; a missing header means 2026-01.alps unless the service runs with --strict-version.',
    ),
})

/**
 * The OpenAPI 3.1 document (`GET /openapi.json`), generated from the same zod schemas the
 * routes validate with, and the interactive reference at `/docs` (assets served locally, loaded
 * on its first request: {@link lazyDocs}). Registered before the routes, so their onRoute hooks
 * see every route.
 */
export async function registerOpenApi(app: FastifyInstance): Promise<void> {
  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'intent-devnet',
        description:
          'The cross-chain intent orchestration API as the simulator serves it. Every spec endpoint and every /_devnet/ endpoint needs `x-api-key`. Each operation lists the versions it serves in `x-api-versions`; a version it does not serve answers 404.',
        version: API_VERSIONS.join(' | '),
      },
      components: {
        securitySchemes: { apiKey: { type: 'apiKey', in: 'header', name: API_KEY_HEADER } },
      },
      security: [{ apiKey: [] }],
    },
    transform: (document) => {
      const route = document.route
      const config = (route.config ?? {}) as { versions?: readonly string[]; public?: boolean }
      const versioned = !config.public && document.schema && !document.schema.hide
      const schema = versioned
        ? { ...document.schema, headers: document.schema.headers ?? VersionHeader }
        : document.schema
      const transformed = jsonSchemaTransform({ ...document, schema })
      if (config.public) return { ...transformed, schema: { ...transformed.schema, security: [] } }
      if (!versioned) return transformed
      return {
        ...transformed,
        schema: { ...transformed.schema, 'x-api-versions': config.versions ?? [...API_VERSIONS] },
      }
    },
    transformObject: jsonSchemaTransformObject,
  })
  lazyDocs(app)
  app.get('/openapi.json', { config: { public: true }, schema: { hide: true } }, async () => app.swagger())
}

/** Where the reference page lives. */
const DOCS_PREFIX = '/docs'
/** Names the docs app's request after the service's request it serves (see {@link lazyDocs}). */
const CALL_HEADER = 'x-intent-devnet-docs-call'
/** Headers of the docs app's answer that the service's own reply sets for itself. */
const OWN_HEADERS = new Set(['content-length', 'date', 'connection', 'keep-alive', 'transfer-encoding'])

/** One request the docs app serves: the service's URL as it came, and what the docs app did not answer itself. */
type DocsCall = { url: string; notFound?: true; error?: unknown }

/**
 * `/docs` (Swagger UI through @fastify/swagger-ui) loaded on its first request, not at start:
 * the package and what it requires (@fastify/static, send, glob, yaml, …) are ~100 CommonJS
 * modules, a good part of a bundled start's CPU before `/health` answers (issue 18,
 * BENCHMARKS.md "Fast start"). Fastify takes no route once it listens, so the service holds
 * `GET`/`HEAD /docs` and `/docs/*` (hidden from the OpenAPI document, public as before: app.ts)
 * and hands each request to a small Fastify app that registers the plugin as the service did
 * (built once, on the first request), with the request's own URL (not normalized, so `..` is
 * refused as before). Its answer (status, headers, body) becomes the service's reply, so the
 * service's hooks run as before (trace id, faults); a 404 or an error in the docs app goes to the
 * service's not-found and error handlers, with the headers the docs app had set (its
 * content-security-policy), as when the plugin was the service's.
 */
function lazyDocs(app: FastifyInstance): void {
  const calls = new Map<string, DocsCall>()
  const callOf = (headers: Record<string, unknown>) => calls.get(String(headers[CALL_HEADER]))
  let lastCall = 0
  let docsApp: Promise<FastifyInstance> | undefined
  const load = () => {
    docsApp ??= (async () => {
      const { default: swaggerUi } = await import('@fastify/swagger-ui')
      const docs = Fastify({ rewriteUrl: (req) => callOf(req.headers)?.url ?? req.url ?? '/' })
      // The document is the service's; @fastify/swagger-ui requires a plugin of that name.
      await docs.register(
        fp(
          async (instance) => {
            instance.decorate('swagger', app.swagger.bind(app))
          },
          { name: '@fastify/swagger' },
        ),
      )
      docs.setNotFoundHandler((request, reply) => {
        const call = callOf(request.headers)
        if (call) call.notFound = true
        reply.code(404).send()
      })
      docs.setErrorHandler((error, request, reply) => {
        const call = callOf(request.headers)
        if (call) call.error = error
        reply.code(500).send()
      })
      await docs.register(swaggerUi, { routePrefix: DOCS_PREFIX, staticCSP: true })
      await docs.ready()
      return docs
    })()
    // A load that failed is tried again on the next request.
    docsApp.catch(() => {
      docsApp = undefined
    })
    return docsApp
  }
  const handler = async (request: FastifyRequest, reply: FastifyReply) => {
    const docs = await load()
    const id = String(++lastCall)
    const call: DocsCall = { url: request.raw.url ?? request.url }
    calls.set(id, call)
    try {
      const answer = await docs.inject({
        method: request.method as 'GET' | 'HEAD',
        url: request.url,
        headers: { ...request.headers, [CALL_HEADER]: id },
      })
      for (const [name, value] of Object.entries(answer.headers))
        if (!OWN_HEADERS.has(name) && value !== undefined) reply.header(name, value)
      if (call.error !== undefined) throw call.error
      if (call.notFound) return reply.callNotFound()
      reply.code(answer.statusCode)
      // A HEAD answers the length a GET would send; no body is no payload (no content type added).
      if (request.method === 'HEAD') {
        if (answer.headers['content-length'] !== undefined)
          reply.header('content-length', answer.headers['content-length'])
        return reply.send()
      }
      return reply.send(answer.rawPayload.length > 0 ? answer.rawPayload : undefined)
    } finally {
      calls.delete(id)
    }
  }
  app.route({ method: ['GET', 'HEAD'], url: DOCS_PREFIX, schema: { hide: true }, handler })
  app.route({ method: ['GET', 'HEAD'], url: `${DOCS_PREFIX}/*`, schema: { hide: true }, handler })
  app.addHook('onClose', async () => {
    const docs = await docsApp?.catch(() => undefined)
    await docs?.close()
  })
}
