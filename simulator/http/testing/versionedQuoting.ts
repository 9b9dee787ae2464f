import type { AlpsRouteResponse, BlancRouteResponse, RouteRequest } from '../../../spec'
import type { QuotingService } from '../../quoting/quotingService'
import { toAlpsRoute } from '../versions/toAlpsRoute'
import { toBlancRouteResponse } from '../versions/toBlancRoute'

/** A quoting service's answers in each version, as `POST /intents/route` sends them. */
export type VersionedQuoting = {
  /** The alps answer: the best route's server-signed intentOp and its intentCost. */
  routeAlps(request: RouteRequest): Promise<AlpsRouteResponse>
  /** The blanc answer: every route, cheapest first, kept in the quote store. */
  routeBlanc(request: RouteRequest): Promise<BlancRouteResponse>
}

/**
 * A quoting service with its answers shaped as each version sends them (simulator/http/versions),
 * for tests that check quotes as a client receives them without going through HTTP.
 *
 * @example
 * const quoting = withVersionedAnswers(createQuotingService(parameters))
 * const { routes } = await quoting.routeBlanc(request)
 */
export function withVersionedAnswers<S extends QuotingService>(service: S): S & VersionedQuoting {
  return {
    ...service,
    routeAlps: async (request) => toAlpsRoute(await service.quoteBest(request)),
    routeBlanc: async (request) =>
      toBlancRouteResponse(await service.quoteEvery(request)) as BlancRouteResponse,
  }
}
