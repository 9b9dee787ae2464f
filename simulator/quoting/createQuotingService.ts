import { getAddress } from 'viem'
import type { PrivateKeyAccount } from 'viem/accounts'
import type { PriceTable } from '../prices/prices'
import { createEmissaryConfigs } from '../signing/emissary'
import type { Clock } from '../util/clock'
import type { BalanceReader } from './createBalanceReader'
import { InsufficientLiquidityError } from './errors'
import { FEE_MODEL } from './fees'
import type { GasPriceTable } from './gasPrices'
import { type QuoteContext, quote } from './quote'
import type { QuoteStore } from './quoteStore'
import type { KeptRoute, QuotingService } from './quotingService'
import { type RoundTripScope, readBalances } from './readBalances'
import { toPortfolio } from './toPortfolio'
import { toStoredQuote } from './toStoredQuote'
import { toTokenRequirement } from './toTokenRequirement'
import type { StoredQuotedIntent } from './types'

/** Parameters of {@link createQuotingService}. */
export type CreateQuotingServiceParameters = {
  /**
   * Reads the accounts' balances (createBalanceReader over createBalanceClients): built by the
   * caller, so the service makes no RPC client of its own. Its chains are the chains quoted on.
   */
  balances: BalanceReader
  /** Signs `serverSignature` (devnet.keys.server.account). */
  server: PrivateKeyAccount
  clock: Clock
  /** The blanc quote store (simulator/quoting/quoteStore.ts); the intent service consumes from it. */
  quotes: QuoteStore<StoredQuotedIntent>
  prices: PriceTable
  /** The allocator's signer (devnet.keys.allocator.account): signs `account.emissaryConfig`; without it quotes omit emissaryConfig. */
  allocatorSigner?: PrivateKeyAccount | undefined
  /**
   * How the quote sees the balances it read (default: as read); the composition root may
   * decorate it (simulator/faultInjection/quoting.ts).
   */
  seeHoldings?: QuoteContext['seeHoldings']
  /** Swap fee in basis points of the swapped value (default FEE_MODEL.swapBps, 10; docs/quoting.md). */
  swapFeeBps?: number | bigint | undefined
  /** The gas prices quotes charge (default: the realistic defaults of gasPrices.ts). */
  gas?: GasPriceTable | undefined
}

/** The quoting service, with its quote store, price table and RPC counter. */
export type QuotingServiceInstance = QuotingService & {
  quotes: QuoteStore<StoredQuotedIntent>
  prices: PriceTable
  /** JSON-RPC round trips (`eth_call`s) made by the last quote to finish (each quote counts its own, also under concurrency). */
  lastQuoteRpcRoundTrips(): number
  /** JSON-RPC round trips since start. */
  rpcRoundTrips(): number
}

/**
 * The quoting service behind `POST /intents/route` and `POST /quotes`: reads balances (one
 * Multicall3 per chain), plans funding, prices, builds and signs the IntentOp (`quote`); the best
 * route signed now (`quoteBest`), or every route kept in the quote store (`quoteEvery`). Version
 * neutral: simulator/http/versions shapes the alps and blanc answers.
 *
 * @example
 * const quoting = createQuotingService({
 *   balances: createBalanceReader({ clients: createBalanceClients({ chains: devnet.chains }) }),
 *   server: devnet.keys.server.account,
 *   clock: devnet,
 *   quotes: createQuoteStore({ clock: devnet, ttlSeconds: 300 }),
 *   prices: createPriceTable(),
 * })
 * const { routes } = await quoting.quoteEvery(request)
 */
export function createQuotingService(parameters: CreateQuotingServiceParameters): QuotingServiceInstance {
  const { balances, quotes, prices } = parameters
  const swapFeeBps = BigInt(parameters.swapFeeBps ?? FEE_MODEL.swapBps)
  if (swapFeeBps < 0n || swapFeeBps >= 10_000n) throw new RangeError('swapFeeBps must be in [0, 10000).')
  const context: QuoteContext = {
    balances,
    tokens: Object.fromEntries(balances.chains.map((c) => [c.chainId, c.tokens])),
    prices,
    clock: parameters.clock,
    server: parameters.server,
    ttlSeconds: quotes.ttlSeconds,
    swapFeeBps,
    emissaryConfigs: parameters.allocatorSigner
      ? createEmissaryConfigs({ allocatorSigner: parameters.allocatorSigner })
      : undefined,
    seeHoldings: parameters.seeHoldings,
    gas: parameters.gas,
  }
  let lastCount = 0
  const counted = <T>(run: (scope: RoundTripScope) => Promise<T>) => {
    const scope = { count: 0 }
    return run(scope).then((answer) => {
      lastCount = scope.count
      return answer
    })
  }

  return {
    quotes,
    prices,
    lastQuoteRpcRoundTrips: () => lastCount,
    rpcRoundTrips: () => balances.rpc.count,
    quoteBest: (request) =>
      counted((scope) => quote(context, { request, routes: 'best', sign: 'now', scope })),
    async quoteEvery(request) {
      const result = await counted((scope) =>
        quote(context, { request, routes: 'every', sign: 'onSubmit', scope }),
      )
      if (!result.routes.length)
        throw new InsufficientLiquidityError((result.missing ?? []).map(toTokenRequirement))
      // The routes of one quote kept together (they share most of their text), all or none.
      const stored = quotes.putAll(
        result.routes.map((route) => toStoredQuote(route.quoted, parameters.server)),
      )
      const routes = result.routes.map((route, i): KeptRoute => {
        const { intentId, expiresAt } = stored[i]!
        return { route, intentId, expiresAt }
      })
      return { routes }
    },
    async resetQuotes() {
      quotes.reset()
    },
    async portfolio(account, filter) {
      return toPortfolio(await readBalances(balances.chains, getAddress(account)), filter)
    },
  }
}
