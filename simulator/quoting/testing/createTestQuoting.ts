import { createFaults, type Faults } from '../../faults/faults'
import { createPriceTable, type PriceTable } from '../../prices/prices'
import { createQuoteStore } from '../quoteStore'
import {
  type CreateQuotingServiceParameters,
  createQuotingService,
  type QuotingServiceInstance,
} from '../quotingService'
import type { StoredQuotedIntent } from '../types'

/** Parameters of {@link createTestQuoting}: the quoting service's, with its stores made here. */
export type CreateTestQuotingParameters = Omit<
  CreateQuotingServiceParameters,
  'quotes' | 'prices' | 'faults'
> & {
  ttlSeconds?: number | undefined
  prices?: PriceTable | undefined
  faults?: Faults | undefined
}

/**
 * The quoting service alone, for tests: a quote store and a price table of its own (the
 * simulator's composition root shares them with the other services instead).
 *
 * @example
 * const quoting = createTestQuoting({ chains: devnet.chains, server: devnet.keys.server.account, clock: devnet })
 */
export function createTestQuoting(parameters: CreateTestQuotingParameters): QuotingServiceInstance {
  const { ttlSeconds = 300, prices = createPriceTable(), faults = createFaults(), ...rest } = parameters
  const quotes = createQuoteStore<StoredQuotedIntent>({ clock: rest.clock, ttlSeconds, faults })
  return createQuotingService({ ...rest, quotes, prices, faults })
}
