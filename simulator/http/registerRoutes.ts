import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import { z } from 'zod'
import { methodsOf, type RouteDefinition, toFastifyPath } from '../../spec'

type PartOf<R, K extends string> = R extends { request: { [P in K]: infer S extends z.ZodType } }
  ? z.output<S>
  : unknown

type SchemaIn<S> = S extends z.ZodType ? S : S extends Record<string, infer V> ? Extract<V, z.ZodType> : never

/** The bodies a route's handler may answer: any success schema of the table, as its input type. */
export type ResponseBodyOf<R extends RouteDefinition> = [keyof R['responses']] extends [never]
  ? unknown
  : z.input<SchemaIn<R['responses'][keyof R['responses']]>>

/** The request a handler of route `R` receives: body, query and params typed by the table's schemas. */
export type RouteRequestOf<R extends RouteDefinition> = FastifyRequest<{
  Body: PartOf<R, 'body'>
  Querystring: PartOf<R, 'querystring'>
  Params: PartOf<R, 'params'>
}>

type Answer<R extends RouteDefinition> = ResponseBodyOf<R> | FastifyReply | undefined

/** The handler of a route of the table: its request typed by the route, its answer by the route's schemas. */
export type RouteHandler<R extends RouteDefinition> = (
  request: RouteRequestOf<R>,
  reply: FastifyReply,
) => Answer<R> | Promise<Answer<R>>

/** One handler per route of a table, by route id. */
export type RouteHandlers<T extends Record<string, RouteDefinition>> = { [K in keyof T]: RouteHandler<T[K]> }

/** Thrown when a table and its handlers do not match one for one. */
export class RouteTableError extends Error {
  override name = 'RouteTableError'
}

/** Fastify's response schemas of a route: one per status, a union where the versions differ. */
function responseSchemas(route: RouteDefinition): Record<number, z.ZodType> | undefined {
  const entries = Object.entries(route.responses)
  if (entries.length === 0) return undefined
  return Object.fromEntries(
    entries.map(([status, schema]) => {
      if (schema instanceof z.ZodType) return [status, schema]
      const distinct = [...new Set(Object.values(schema).filter((s): s is z.ZodType => s !== undefined))]
      return [status, distinct.length === 1 ? distinct[0]! : z.union(distinct as [z.ZodType, ...z.ZodType[]])]
    }),
  )
}

/**
 * Registers the routes of a table on a Fastify app, each with its handler: the method and path,
 * the request and response schemas, the versions and access (as route config the auth and
 * versioning plugins read, with the route id) all come from the table. Throws when a route has no
 * handler or a handler no route.
 *
 * @example
 * registerRoutes(app, ROUTES, { health: async () => ({ status: 'ok', chains: [] }), ... })
 */
export function registerRoutes<T extends Record<string, RouteDefinition>>(
  app: FastifyInstance,
  table: T,
  handlers: RouteHandlers<T>,
): void {
  const extra = Object.keys(handlers).filter((id) => !Object.hasOwn(table, id))
  if (extra.length) throw new RouteTableError(`Handlers without a route in the table: ${extra.join(', ')}.`)
  for (const [id, route] of Object.entries(table)) {
    const handler = (handlers as unknown as Record<string, RouteHandler<RouteDefinition> | undefined>)[id]
    if (!handler) throw new RouteTableError(`The route ${id} (${route.path}) has no handler.`)
    app.route({
      method: [...methodsOf(route)],
      url: toFastifyPath(route.path),
      config: {
        routeId: id,
        versions: route.versions,
        public: route.access === 'public',
        control: route.access === 'control',
      },
      schema: {
        ...(route.hidden ? { hide: true } : { tags: [route.tag], summary: route.summary }),
        ...(route.request?.body ? { body: route.request.body } : {}),
        ...(route.request?.querystring ? { querystring: route.request.querystring } : {}),
        ...(route.request?.params ? { params: route.request.params } : {}),
        ...(route.request?.headers ? { headers: route.request.headers } : {}),
        ...(responseSchemas(route) ? { response: responseSchemas(route) } : {}),
      },
      handler: handler as (request: FastifyRequest, reply: FastifyReply) => unknown,
    })
  }
}
