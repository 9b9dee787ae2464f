import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import { z } from 'zod'
import { Address, Portfolio, PortfolioQuery } from '../../../spec'

const PortfolioParams = z.object({ address: Address })

/** `GET /accounts/{address}/portfolio`: an account's balances, locked and unlocked (facts §1; the public SDK's `getPortfolio`). */
export const portfolioRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get('/accounts/:address/portfolio', {
    schema: {
      tags: ['accounts'],
      summary: "An account's tokens, locked in the Compact and unlocked, per chain",
      params: PortfolioParams,
      querystring: PortfolioQuery,
      response: { 200: Portfolio },
    },
    handler: (request) => {
      const { chainIds, tokens } = request.query
      return app.services.quoting.portfolio(request.params.address, {
        chainIds: chainIds?.split(',').map(Number),
        tokens: tokens?.split(',').map((pair) => {
          const [chainId, token] = pair.split(':') as [string, string]
          return { chainId: Number(chainId), token }
        }),
      })
    },
  })
}
