import type { TokenInfo } from '../../../contracts/addresses'
import { type VersionedQuoting, withVersionedAnswers } from '../../http/testing/versionedQuoting'
import { createPriceTable, type PriceTable } from '../../prices/prices'
import { type BalanceClientChain, createBalanceClients } from '../createBalanceClients'
import { createBalanceReader } from '../createBalanceReader'
import {
  type CreateQuotingServiceParameters,
  createQuotingService,
  type QuotingServiceInstance,
} from '../createQuotingService'
import { createQuoteStore } from '../quoteStore'
import type { StoredQuotedIntent } from '../types'

/** Parameters of {@link createTestQuoting}: the quoting service's, with its reader and stores made here. */
export type CreateTestQuotingParameters = Omit<
  CreateQuotingServiceParameters,
  'balances' | 'quotes' | 'prices'
> & {
  /** The chains to quote on (a DevnetChain fits): their balance clients and reader are made here. */
  chains: readonly BalanceClientChain[]
  tokens?: Record<number, readonly TokenInfo[]> | undefined
  ttlSeconds?: number | undefined
  prices?: PriceTable | undefined
}

/**
 * The quoting service alone, for tests: balance clients, a quote store and a price table of its
 * own (the simulator's composition root builds and shares them instead), with its answers shaped
 * as each version sends them (`routeAlps`, `routeBlanc`).
 *
 * @example
 * const quoting = createTestQuoting({ chains: devnet.chains, server: devnet.keys.server.account, clock: devnet })
 */
export function createTestQuoting(
  parameters: CreateTestQuotingParameters,
): QuotingServiceInstance & VersionedQuoting {
  const { chains, tokens, ttlSeconds = 300, prices = createPriceTable(), ...rest } = parameters
  const balances = createBalanceReader({ clients: createBalanceClients({ chains }), tokens })
  const quotes = createQuoteStore<StoredQuotedIntent>({ clock: rest.clock, ttlSeconds })
  return withVersionedAnswers(createQuotingService({ ...rest, balances, quotes, prices }))
}
