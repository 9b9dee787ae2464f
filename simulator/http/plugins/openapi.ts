import swagger from '@fastify/swagger'
import swaggerUi from '@fastify/swagger-ui'
import type { FastifyInstance } from 'fastify'
import { jsonSchemaTransform, jsonSchemaTransformObject } from 'fastify-type-provider-zod'
import { z } from 'zod'
import { API_VERSIONS } from '../../../conformance/spec'
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
 * routes validate with, and the interactive reference at `/docs` (assets served locally).
 * Registered before the routes, so their onRoute hooks see every route.
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
  await app.register(swaggerUi, { routePrefix: '/docs', staticCSP: true })
  app.get('/openapi.json', { config: { public: true }, schema: { hide: true } }, async () => app.swagger())
}
