import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import { z } from 'zod'
import {
  ClockAdvanceRequest,
  DevnetManifest,
  FaultsRequest,
  PricesRequest,
  RevertRequest,
} from '../../../spec'
import { FAULT_CATALOGUE, UnknownFaultError } from '../../faults/faults'
import { ApiError } from '../errorCodes'

const FaultsResponse = z.object({
  enabled: z.array(z.string()),
  known: z.record(z.string(), z.string()),
})

/**
 * The devnet control API under `/_devnet/` (same key; a missing `x-api-version` is fine even in
 * strict mode): manifest, clock, quote store reset, faults, snapshot/revert and prices.
 */
export const devnetRoutes: FastifyPluginAsyncZod = async (app) => {
  const { devnet } = app.services
  const config = { control: true } as const

  app.get('/_devnet/manifest', {
    config,
    schema: {
      tags: ['devnet'],
      summary: 'Chains, RPC URLs, contracts, tokens, accounts',
      response: { 200: DevnetManifest },
    },
    handler: async () => devnet.manifest(),
  })

  app.post('/_devnet/clock/advance', {
    config,
    schema: {
      tags: ['devnet'],
      summary: 'Advance the service clock and every chain',
      body: ClockAdvanceRequest,
    },
    handler: (request) => devnet.advanceClock(request.body.seconds),
  })

  app.post('/_devnet/quotes/reset', {
    config,
    schema: { tags: ['devnet'], summary: 'Empty the quote store, as a restart would' },
    handler: async (request) => {
      await app.services.quoting.resetQuotes()
      return { reset: true }
    },
  })

  const faultsState = () => ({ enabled: app.faults.list(), known: FAULT_CATALOGUE })

  app.get('/_devnet/faults', {
    config,
    schema: {
      tags: ['devnet'],
      summary: 'The enabled faults and the catalogue',
      response: { 200: FaultsResponse },
    },
    handler: async () => faultsState(),
  })

  app.post('/_devnet/faults', {
    config,
    schema: {
      tags: ['devnet'],
      summary: 'Enable or disable faults (clear first, then disable, then enable)',
      body: FaultsRequest,
      response: { 200: FaultsResponse },
    },
    handler: async (request) => {
      const { enable = [], disable = [], clear = false } = request.body
      const unknown = [...enable, ...disable].filter((name) => !(name in FAULT_CATALOGUE))
      // Checked up front so a request naming an unknown fault changes nothing.
      if (unknown.length > 0) throw new UnknownFaultError(unknown)
      if (clear) app.faults.clear()
      app.faults.disable(disable)
      app.faults.enable(enable)
      return faultsState()
    },
  })

  app.post('/_devnet/snapshot', {
    config,
    schema: { tags: ['devnet'], summary: 'Snapshot every chain; one id for the set' },
    handler: (request) => devnet.snapshot(),
  })

  app.post('/_devnet/revert', {
    config,
    schema: { tags: ['devnet'], summary: 'Revert every chain to a snapshot', body: RevertRequest },
    handler: async (request) => {
      if (!(await devnet.revert(request.body.id)))
        throw new ApiError('NOT_FOUND', `No snapshot ${request.body.id}.`)
      return { reverted: true, id: request.body.id }
    },
  })

  app.post('/_devnet/prices', {
    config,
    schema: { tags: ['devnet'], summary: 'Set token prices (USD, by symbol)', body: PricesRequest },
    handler: async (request) => ({
      prices: await app.services.prices.setPrices(request.body.prices),
    }),
  })
}
