import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import { z } from 'zod'

const HealthResponse = z.object({
  status: z.enum(['ok', 'degraded']),
  chains: z.array(z.object({ chainId: z.number().int(), up: z.boolean() })),
})

/** `GET /health` (no key): `ok` when every chain's Anvil answers, `degraded` otherwise. */
export const healthRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get('/health', {
    config: { public: true },
    schema: {
      tags: ['service'],
      summary: 'Liveness of the service and its chains',
      response: { 200: HealthResponse },
    },
    handler: async () => {
      // A devnet that cannot even report is degraded, not a 500: health checks poll this.
      const chains = await app.services.devnet.health().then(
        (health) => health.chains,
        () => undefined,
      )
      if (!chains) return { status: 'degraded' as const, chains: [] }
      return { status: chains.every((chain) => chain.up) ? ('ok' as const) : ('degraded' as const), chains }
    },
  })
}
