import type { RouteRequest } from '../../spec'
import type { Faults } from '../faults/faults'
import type { QuoteContext } from '../quoting/quote'
import { hasExpired } from '../quoting/quoteStore'
import type { KeptRoute, QuotingService } from '../quoting/quotingService'

type Has = Pick<Faults, 'has'>

/** The request as a quoting fault sees it: access lists inverted or ignored, executions dropped. */
function faultyRequest(request: RouteRequest, faults: Has, chainIds: readonly number[]): RouteRequest {
  const next: RouteRequest = structuredClone(request)
  if (faults.has('quotes.drop-destination-executions')) delete next.destinationExecutions
  if (faults.has('quotes.drop-pre-claim-executions')) delete next.preClaimExecutions
  const access = next.accountAccessList
  if (access && faults.has('quotes.access-list-ignore-chains')) {
    delete access.chainIds
    if (access.exclude) delete access.exclude.chainIds
  }
  if (access && faults.has('quotes.access-list-tokens-inverted')) {
    // The allow lists match every token; the exclude lists match every token on every chain.
    delete access.tokens
    delete access.chainTokens
    const exclude = access.exclude
    if (exclude && (exclude.tokens?.length || Object.keys(exclude.chainTokens ?? {}).length)) {
      exclude.chainIds = [...chainIds]
      delete exclude.tokens
      delete exclude.chainTokens
    }
  }
  return next
}

/**
 * The quoting service with the `quotes.*` faults of requests (access lists inverted or ignored,
 * executions dropped; `chainIds` are the running chains) and `quotes.malformed-field` (kept blanc
 * routes lose their `intentId`, so the answer breaks the spec's route shape). The faults of the
 * answers' fields (order, fee parts, deadlines) are applied where the answers are shaped, at the
 * edge (simulator/http/versions/quoteAnswerFaults.ts).
 *
 * @example
 * const quoting = withQuotingFaults(createQuotingService(parameters), faults, [10, 8453])
 */
export function withQuotingFaults<S extends QuotingService>(
  service: S,
  faults: Has,
  chainIds: readonly number[],
): S {
  return {
    ...service,
    quoteBest: (request) => service.quoteBest(faultyRequest(request, faults, chainIds)),
    async quoteEvery(request) {
      const answer = await service.quoteEvery(faultyRequest(request, faults, chainIds))
      if (faults.has('quotes.malformed-field'))
        for (const kept of answer.routes) delete (kept as Partial<KeptRoute>).intentId
      return answer
    },
  }
}

/**
 * The quote store's expiry with `quotes.no-404-after-expiry` around it: a quote never expires,
 * so a late submit is accepted instead of 404.
 *
 * @example
 * createQuoteStore({ clock, ttlSeconds: 300, isExpired: quoteExpiry(faults) })
 */
export function quoteExpiry(
  faults: Pick<Faults, 'has'>,
): (stored: { expiresAt: number }, now: number) => boolean {
  return (stored, now) => !faults.has('quotes.no-404-after-expiry') && hasExpired(stored, now)
}

/**
 * How a quote sees the balances it read, with `quotes.balance-from-allowance`: the wallet
 * balance is read from the Permit2-allowance slot.
 *
 * @example
 * createQuotingService({ ...parameters, seeHoldings: seeHoldingsFaults(faults) })
 */
export function seeHoldingsFaults(faults: Has): NonNullable<QuoteContext['seeHoldings']> {
  return (holdings) =>
    faults.has('quotes.balance-from-allowance')
      ? holdings.map((h) => ({ ...h, tokens: h.tokens.map((t) => ({ ...t, wallet: t.permit2Allowance })) }))
      : holdings
}
