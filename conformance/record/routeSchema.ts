import { findRoute, ROUTES, responseSchemaOf, type SpecSchemaName, specSchemaNameOf } from '../../spec'

/**
 * The spec schema of a route's success answer, by method and path (query left out), for the
 * version the request spoke; undefined for a route the spec gives no named schema. Derived from
 * the route table (spec/routes): the route's first documented status, in that version.
 *
 * @example
 * routeSchema('GET', '/intents/abc', 'blanc') // 'BlancIntentStatus'
 */
export function routeSchema(
  method: string,
  path: string,
  version: 'alps' | 'blanc',
): SpecSchemaName | undefined {
  const found = findRoute(ROUTES, method, path)
  if (!found) return undefined
  const success = Object.keys(found.route.responses).map(Number).sort()[0]
  if (success === undefined) return undefined
  const schema = responseSchemaOf(found.route, success, version)
  return schema && specSchemaNameOf(schema)
}
