import type { FastifyInstance } from 'fastify'
import type { DEVNET_ROUTES } from '../../../spec'
import { ApiError } from '../errorCodes'
import type { RouteHandlers } from '../registerRoutes'
import { trustResponse } from '../trustedResponse'

/**
 * Handlers of `GET /health` and the devnet control API under `/_devnet/` (spec/routes/devnet.ts):
 * manifest, clock, quote store reset, faults, snapshot/revert and prices.
 *
 * @example
 * registerRoutes(app, DEVNET_ROUTES, devnetHandlers(app))
 */
export function devnetHandlers(app: FastifyInstance): RouteHandlers<typeof DEVNET_ROUTES> {
  const { devnet, quoting, prices, faults } = app.services
  // Answers marked trustResponse are built to their schemas and sent as built: every one the
  // tests make is checked byte for byte (trustedResponse.ts); the others are checked here.
  return {
    // `ok` when every chain's Anvil answers; a devnet that cannot even report is degraded, not
    // a 500: health checks poll this.
    health: async () => {
      const chains = await devnet.health().then(
        (health) => health.chains,
        () => undefined,
      )
      if (!chains) return trustResponse({ status: 'degraded' as const, chains: [] })
      return trustResponse({
        status: chains.every((chain) => chain.up) ? ('ok' as const) : ('degraded' as const),
        chains,
      })
    },
    manifest: async () => trustResponse(devnet.manifest()),
    clockAdvance: async (request) => trustResponse(await devnet.advanceClock(request.body.seconds)),
    quotesReset: async () => {
      await quoting.resetQuotes()
      return { reset: true as const }
    },
    faultsGet: async () => trustResponse(faults.state()),
    faultsSet: async (request) => {
      const { enable = [], disable = [], clear = false } = request.body
      faults.change({ enable, disable, clear })
      return trustResponse(faults.state())
    },
    snapshot: () => devnet.snapshot(),
    revert: async (request) => {
      if (!(await devnet.revert(request.body.id)))
        throw new ApiError('NOT_FOUND', `No snapshot ${request.body.id}.`)
      return { reverted: true as const, id: request.body.id }
    },
    prices: async (request) => trustResponse({ prices: await prices.setPrices(request.body.prices) }),
  }
}
