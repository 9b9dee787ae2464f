import { DEPOSIT_PROCESSOR_ROUTES } from './depositProcessor'
import { DEVNET_ROUTES } from './devnet'
import { INTENT_ROUTES } from './intents'

export { DEPOSIT_PROCESSOR_ROUTES, IdParams } from './depositProcessor'
export { DEVNET_ROUTES } from './devnet'
export { BlancIdParams, INTENT_ROUTES, IntentIdParams, OperationIdParams, PortfolioParams } from './intents'

/**
 * The API's route table: every route of the spec, the public service's aliases, the deposit
 * processor and the devnet's control API, by id. The simulator registers its routes from it, the
 * OpenAPI document is generated from it, and the conformance suite derives its route lookup,
 * the `public` profile and its response checks from it.
 */
export const ROUTES = { ...INTENT_ROUTES, ...DEPOSIT_PROCESSOR_ROUTES, ...DEVNET_ROUTES }
/** The id of a route of {@link ROUTES}. */
export type RouteId = keyof typeof ROUTES
