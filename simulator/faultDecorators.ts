import type { AlpsRouteResponse, BlancRouteResponse, RouteRequest } from '../spec'
import { InvalidConfigurationError } from './deposits/errors'
import type { DepositProcessorService } from './deposits/types'
import type { Faults } from './faults/faults'
import type { VerifySubmission } from './intents/types'
import type { QuotingService } from './quoting/types'

/**
 * Faults of the catalogue (simulator/faults/faults.ts) applied around domain services rather than
 * inside them: each decorator answers as the service would with one rule broken, and leaves the
 * service itself untouched. The composition root (startSimulator.ts) wraps the services with
 * them; with no fault enabled every call goes straight through.
 */
type Has = Pick<Faults, 'has'>

/** Raw integer strings moved by `delta` (fee parts, deadlines). */
const shift = (value: string | number, delta: bigint) => (BigInt(value) + delta).toString()

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

/** The alps answer with the cost and deadline faults applied (fields read by the client, not re-signed). */
function faultyAlps(route: AlpsRouteResponse, faults: Has): AlpsRouteResponse {
  const { intentOp, intentCost } = route
  const usd = intentCost.feeBreakdownUSD
  if (faults.has('quotes.fee-total-mismatch')) {
    for (const t of intentCost.tokensReceived) t.fee += 1
    usd.totalFeeUSD += 0.01
  }
  if (faults.has('quotes.negative-fee-part')) {
    for (const t of intentCost.tokensReceived) {
      t.feeBreakdown.swapFee = shift(t.feeBreakdown.swapFee, -1n)
      t.fee -= 1
      t.amountSpent -= 1
    }
    usd.swapFeeUSD -= 0.01
    usd.totalFeeUSD -= 0.01
  }
  if (faults.has('quotes.expires-before-fill-deadline'))
    intentOp.expires = shift(intentOp.elements[0]?.mandate.fillDeadline ?? intentOp.expires, -1n)
  if (faults.has('quotes.deadlines-in-the-past')) {
    const twoDays = -2n * 86_400n
    intentOp.expires = shift(intentOp.expires, twoDays)
    for (const e of intentOp.elements) e.mandate.fillDeadline = shift(e.mandate.fillDeadline, twoDays)
  }
  if (!intentCost.hasFulfilledAll) {
    if (faults.has('quotes.invert-has-fulfilled'))
      for (const t of intentCost.tokensReceived) t.hasFulfilled = !t.hasFulfilled
    if (faults.has('quotes.shortfall-on-covered')) {
      for (const t of intentCost.tokensReceived) t.hasFulfilled = false
      for (const r of Object.values(route.tokenRequirements ?? {}) as Record<string, string>[])
        if (r.missing === '0') Object.assign(r, { available: '0', missing: r.required })
    }
  }
  return route
}

/** The blanc answer with the order and cost faults applied. */
function faultyBlanc(answer: BlancRouteResponse, faults: Has): BlancRouteResponse {
  type Fees = { totalUsd: number; breakdown: { swap: { usd: number } } }
  const feesOf = (route: BlancRouteResponse['routes'][number]) =>
    (route.cost as unknown as { fees: Fees }).fees
  if (faults.has('quotes.routes-most-expensive-first')) answer.routes.reverse()
  for (const route of answer.routes) {
    const fees = feesOf(route)
    if (faults.has('quotes.fee-total-mismatch')) fees.totalUsd += 0.01
    if (faults.has('quotes.negative-fee-part')) {
      fees.breakdown.swap.usd -= 0.01
      fees.totalUsd -= 0.01
    }
  }
  return answer
}

/**
 * The quoting service with the `quotes.*` faults of answers and requests (access lists, dropped
 * executions, route order, fee parts, deadlines, hasFulfilled); `chainIds` are the running chains.
 *
 * @example
 * const quoting = withQuotingFaults(createQuotingService(parameters), faults, [10, 8453])
 */
export function withQuotingFaults<T extends QuotingService>(
  service: T,
  faults: Has,
  chainIds: readonly number[],
): T {
  return {
    ...service,
    async routeAlps(request) {
      return faultyAlps(await service.routeAlps(faultyRequest(request, faults, chainIds)), faults)
    },
    async routeBlanc(request) {
      return faultyBlanc(await service.routeBlanc(faultyRequest(request, faults, chainIds)), faults)
    },
  }
}

/**
 * The pre-submit check with `intents.skip-signature-check`: the origin and destination signature
 * problems are dropped (the server signature and every other check still count).
 *
 * @example
 * const verify = withSignatureFaults((signed, server) => verifySubmission({ devnet, signed, serverAddress: server }), faults)
 */
export function withSignatureFaults(verify: VerifySubmission, faults: Has): VerifySubmission {
  return async (signed, serverAddress) => {
    const problems = await verify(signed, serverAddress)
    if (!faults.has('intents.skip-signature-check')) return problems
    return problems.filter((p) => !/^(originSignatures|destinationSignature)/.test(p.field))
  }
}

/**
 * A tenant's deposit processor with `deposits.refuse-equal-bounds`: a whitelist entry whose
 * `minAmount` equals its `maxAmount` is refused as an invalid configuration.
 *
 * @example
 * const forTenant = (tenant: string) => withDepositFaults(createDepositProcessorService(processor, tenant), faults)
 */
export function withDepositFaults(service: DepositProcessorService, faults: Has): DepositProcessorService {
  return {
    ...service,
    async setup(params) {
      if (faults.has('deposits.refuse-equal-bounds'))
        for (const [chain, entries] of Object.entries(params.depositWhitelist ?? {}))
          for (const [i, entry] of (entries ?? []).entries())
            if (entry.minAmount !== undefined && entry.minAmount === entry.maxAmount)
              throw new InvalidConfigurationError(
                `depositWhitelist.${chain}[${i}]`,
                'minAmount must be below maxAmount.',
              )
      return service.setup(params)
    },
  }
}
