import { ROUTES } from '../../spec'
import { EXPLORER_ROUTES } from '../explorer/routes'
import { DOCS_ROUTES } from './plugins/openapi'

/**
 * Every route the simulator serves, by id: the contract's table (spec/routes: the spec's
 * routes, the public aliases, the deposit processor, the control API), the explorer's and the
 * OpenAPI document with its reference page. `buildApp` registers exactly these.
 *
 * @example
 * SERVER_ROUTES.quote.path // '/intents/route'
 */
export const SERVER_ROUTES = { ...ROUTES, ...EXPLORER_ROUTES, ...DOCS_ROUTES }
/** The id of a route the simulator serves. */
export type ServerRouteId = keyof typeof SERVER_ROUTES
