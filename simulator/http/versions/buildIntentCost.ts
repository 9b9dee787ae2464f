/** A 0x-prefixed address (viem's Address; routes do not import viem). */
type Address = `0x${string}`

import type { IntentCost, SponsorFee } from '../../../spec'
import { microUsd, usdNumber } from '../../prices/prices'
import { userFeeMicroUsd } from '../../quoting/feeMicroUsd'
import { type FeeParts, feePartsJson, type GasEstimate, type RequestFees, sumFees } from '../../quoting/fees'
import type { FundingMethod, FundingPlan, FundingSource, PlanRequest, Shortfall } from '../../quoting/types'

/** alps `tokensSpent`: per origin chain (decimal string), per source token, what is taken. */
export type TokensSpent = Record<
  string,
  Record<Address, { symbol: string; amount: string; fundingMethod: FundingMethod }>
>

/** Parameters of {@link buildIntentCost}. */
export type BuildIntentCostParameters = {
  plan: FundingPlan
  requests: readonly PlanRequest[]
  fees: readonly RequestFees[]
  gas: GasEstimate
  ethPrice: number
  /** USD price of a requested token's symbol. */
  price: (symbol: string) => number
  sponsorFee: SponsorFee
  /** Per request, when the plan is a best effort (nothing funds every request). */
  missing?: readonly Shortfall[] | undefined
}

/**
 * The alps `intentCost` of a route: what it spends per chain and token, what each request
 * receives and costs (exact raw strings beside the numbers, and what funds it), the sponsor's
 * part, the gas per chain and the fee breakdown in USD (micro-USD sums, so totals are exact).
 */
export function buildIntentCost(parameters: BuildIntentCostParameters): IntentCost {
  const { plan, requests, fees, gas, ethPrice, price, sponsorFee, missing } = parameters
  const tokensSpent: TokensSpent = {}
  for (const allocation of plan.allocations)
    for (const s of allocation.sources) {
      const chain = tokensSpent[String(s.chainId)] ?? {}
      tokensSpent[String(s.chainId)] = chain
      const prev = chain[s.token]?.amount ?? '0'
      chain[s.token] = {
        symbol: s.symbol,
        amount: (BigInt(prev) + s.amount).toString(),
        fundingMethod: plan.method,
      }
    }
  const parts = {
    gasFeeUSD: userFeeMicroUsd(requests, fees, price, 'gasFee'),
    bridgeFeeUSD: userFeeMicroUsd(requests, fees, price, 'bridgeFee'),
    protocolFeeUSD: userFeeMicroUsd(requests, fees, price, 'protocolFee'),
    swapFeeUSD: userFeeMicroUsd(requests, fees, price, 'swapFee'),
    settlementFeeUSD: userFeeMicroUsd(requests, fees, price, 'settlementFee'),
  }
  const totalMicro = Object.values(parts).reduce((a, b) => a + b, 0n)
  const gasUsd = (wei: bigint) => microUsd(wei, 18, ethPrice)
  return {
    hasFulfilledAll: !missing,
    tokensSpent,
    tokensReceived: requests.map((r, i) => {
      const user = fees[i]?.user as FeeParts
      const fee = sumFees(user)
      return {
        tokenAddress: r.token.address,
        amountSpent: Number(r.amount + fee),
        targetAmount: Number(r.amount),
        fee: Number(fee),
        // Exact integer strings: the numbers above lose precision past 2^53.
        amountSpentRaw: (r.amount + fee).toString(),
        targetAmountRaw: r.amount.toString(),
        feeRaw: fee.toString(),
        feeBreakdown: feePartsJson(user),
        feesByToken: {
          [r.token.address.toLowerCase()]: { amount: fee.toString(), breakdown: feePartsJson(user) },
        },
        // What pays for it: `value` (raw units of this token) adds up to amountSpentRaw when fulfilled.
        fundedBy: fundedBy(plan.allocations[i]?.sources ?? []),
        hasFulfilled: !missing || missing[i]?.missing === 0n,
      }
    }),
    sponsorFee,
    gasCost: {
      originChains: gas.origin.map((o) => ({ chainId: o.chainId, gasUSD: usdNumber(gasUsd(o.wei)) })),
      destination: { chainId: gas.destination.chainId, gasUSD: usdNumber(gasUsd(gas.destination.wei)) },
      totalUSD: usdNumber(gas.origin.reduce((s, o) => s + gasUsd(o.wei), gasUsd(gas.destination.wei))),
    },
    feeBreakdownUSD: {
      gasFeeUSD: usdNumber(parts.gasFeeUSD),
      bridgeFeeUSD: usdNumber(parts.bridgeFeeUSD),
      protocolFeeUSD: usdNumber(parts.protocolFeeUSD),
      swapFeeUSD: usdNumber(parts.swapFeeUSD),
      settlementFeeUSD: usdNumber(parts.settlementFeeUSD),
      totalFeeUSD: usdNumber(totalMicro),
    },
  }
}

/** The sources of one request as the cost shows them: what is taken, and what it pays for (raw units of the requested token). */
const fundedBy = (sources: readonly FundingSource[]) =>
  sources.map((s) => ({
    chainId: s.chainId,
    tokenAddress: s.token,
    symbol: s.symbol,
    amount: s.amount.toString(),
    kind: s.kind ?? 'SAME',
    value: (s.value ?? s.amount).toString(),
  }))
