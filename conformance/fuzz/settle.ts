import { INTENT_STATUSES } from '../../spec/status'
import type { HttpStep, Step } from '../scenario/schema'
import {
  type Executor,
  type Model,
  type QuoteRef,
  ref,
  type StatusOrder,
  type TaggedStep,
  v,
  variable,
} from './model'

/** How an intent's statuses move (facts §1): PENDING → … → COMPLETED; FAILED and EXPIRED are final too. */
const INTENT_ORDER: StatusOrder = {
  pointer: '/status',
  rank: Object.fromEntries(INTENT_STATUSES.map((status, i) => [status, i])),
  final: new Set(['COMPLETED', 'FAILED', 'EXPIRED']),
  settledProperty: 'settled-exactly',
}

/** The status route of a quote's intent. */
export const statusRoute = (quote: QuoteRef) =>
  quote.version === 'alps' ? 'operationStatus' : 'intentStatus'

/**
 * Polls a submitted quote's intent to COMPLETED (its status only moving forward), checks its
 * transactions are mined, that the run's fresh recipient (`fresh.0`) holds exactly what the
 * model says it received on the destination chain, then runs `after` (the sender's side, when
 * the quote's sender is the sequence's own: senderCommand.ts).
 *
 * @example
 * await settleQuote(m, real, quote)
 */
export async function settleQuote(
  m: Model,
  real: Executor,
  quote: QuoteRef,
  after: readonly TaggedStep[] = [],
): Promise<void> {
  quote.settled = true
  const alps = quote.version === 'alps'
  const route = statusRoute(quote)
  const poll: HttpStep = {
    name: `intent of quote ${quote.prefix ?? quote.n} reaches COMPLETED`,
    http: {
      method: 'GET',
      path: alps ? `/intent-operation/${ref(quote, 'id')}` : `/intents/${ref(quote, 'intentId')}`,
      apiKey: 'default',
      version: quote.version,
    },
    poll: { timeoutSeconds: 90, intervalMs: 100, final: { '/status': { oneOf: ['FAILED', 'EXPIRED'] } } },
    expect: {
      status: 200,
      schema: alps ? 'IntentStatus' : 'BlancIntentStatus',
      body: alps
        ? { '/status': { equals: 'COMPLETED' }, '/fillTransactionHash': { matches: '^0x[0-9a-fA-F]{64}$' } }
        : {
            '/status': { equals: 'COMPLETED' },
            '/operations/0/items/0/txHash': { matches: '^0x[0-9a-fA-F]{64}$' },
          },
    },
    capture: alps
      ? { [v(quote, 'fill')]: '/fillTransactionHash', [v(quote, 'claims')]: '/claims' }
      : { [v(quote, 'chain')]: '/operations/0/chain', [v(quote, 'tx')]: '/operations/0/items/0/txHash' },
  }
  await real.pollForward({ step: poll, property: 'status-forward', route }, INTENT_ORDER)
  m.received[quote.chainId] = (m.received[quote.chainId] ?? 0n) + BigInt(quote.amount)
  const settled = (step: Step): TaggedStep => ({ step, property: 'settled-exactly', route })
  await real.run([
    settled(
      alps
        ? {
            name: 'the fill is mined on the destination chain',
            chain: {
              action: 'receipt',
              chainId: quote.chainId,
              hash: ref(quote, 'fill'),
              expectStatus: 'success',
              timeoutSeconds: 30,
            },
          }
        : {
            name: 'its first transaction is mined on its chain',
            chain: {
              action: 'receipt',
              chainId: ref(quote, 'chain'),
              hash: ref(quote, 'tx'),
              expectStatus: 'success',
              timeoutSeconds: 30,
            },
          },
    ),
    ...(alps
      ? [
          settled({
            name: 'every claim is mined on its origin chain',
            chain: {
              action: 'receipts',
              transactions: ref(quote, 'claims'),
              hashField: 'claimTransactionHash',
              chainIdField: 'chainId',
              expectStatus: 'success',
              timeoutSeconds: 30,
            },
          }),
        ]
      : []),
    settled({
      name: `the fresh account holds exactly the quoted USDC on ${quote.chainId}`,
      chain: {
        action: 'readBalance',
        chainId: quote.chainId,
        account: variable('fresh.0.address'),
        token: variable(`tokens.${quote.chainId}.USDC`),
        expect: { equals: String(m.received[quote.chainId]) },
      },
    }),
    ...after,
  ])
}
