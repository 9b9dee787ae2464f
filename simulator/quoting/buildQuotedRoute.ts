import type { PrivateKeyAccount } from 'viem/accounts'
import type { SponsorFee } from '../../spec'
import { lockTagOfId } from '../eip712/typedData'
import { microUsd, usdNumber } from '../prices/prices'
import type { EmissaryConfigs } from '../signing/emissary'
import { buildIntentOp } from './buildIntentOp'
import { buildSignedMetadata } from './buildSignedMetadata'
import type { CheckedRouteRequest } from './checkRouteRequest'
import type { RouteCosts } from './createRouteCosts'
import { sponsoredMicroUsd } from './feeMicroUsd'
import { type FeeParts, type GasEstimate, type RequestFees, sumFees } from './fees'
import type { FundingPlan, QuotedIntent } from './types'

/** When the server signs a route's IntentOp: now (it goes out in the answer) or when it is submitted. */
export type SignMoment = 'now' | 'onSubmit'

/**
 * One quoted route: the quote, the plan it funds, its gas and fees per request, what the user pays
 * in all (the sort key) and what the sponsor pays.
 */
export type QuotedRoute = {
  quoted: QuotedIntent
  plan: FundingPlan
  gas: GasEstimate
  /** Per request (request order). */
  fees: RequestFees[]
  userFeeMicroUsd: bigint
  sponsorFee: SponsorFee
}

/** Parameters of {@link buildQuotedRoute}. */
export type BuildQuotedRouteParameters = {
  checked: CheckedRouteRequest
  plan: FundingPlan
  costs: RouteCosts
  /** USD price of a symbol (throws when the table has none). */
  price: (symbol: string) => number
  server: PrivateKeyAccount
  emissaryConfigs: EmissaryConfigs | undefined
  /** Devnet time of the quote, unix seconds. */
  now: number
  /** Quote lifetime, seconds (the quote store's). */
  ttlSeconds: number
  sign: SignMoment
}

/**
 * Prices one funding plan and builds its route: the fees, the signed metadata, the IntentOp (and
 * the typed data the user signs), signed by the server now or at submission.
 */
export async function buildQuotedRoute(parameters: BuildQuotedRouteParameters): Promise<QuotedRoute> {
  const { checked, plan, costs, price, server, emissaryConfigs, now } = parameters
  const { requests, account, recipient, destinationChainId } = checked
  const { gas, fees } = costs.costOf(plan.chainIds, plan)
  const userFeeMicroUsd = requests.reduce(
    (s, r, i) => s + microUsd(sumFees(fees[i]?.user as FeeParts), r.token.decimals, price(r.symbol)),
    0n,
  )
  const sponsorFee = {
    relayer: usdNumber(sponsoredMicroUsd(requests, fees, price, ['gasFee'])),
    protocol: usdNumber(sponsoredMicroUsd(requests, fees, price, ['bridgeFee', 'swapFee'])),
  }
  const symbols = new Set([
    'ETH',
    ...requests.map((r) => r.symbol),
    ...plan.allocations.flatMap((a) => a.sources.map((s) => s.symbol)),
  ])
  // Only a smart account's Compact locks need an emissary (docs/emissary.md); cached, no RPC.
  const lockId = plan.allocations[0]?.sources[0]?.lockId
  const emissaryConfig =
    emissaryConfigs && account.isSmartAccount && plan.method === 'COMPACT' && lockId !== undefined
      ? await emissaryConfigs.configFor({ account: account.address, lockTag: lockTagOfId(lockId), now })
      : undefined
  const signedMetadata = buildSignedMetadata({
    checked,
    plan,
    tokenPrices: Object.fromEntries([...symbols].map((s) => [s, price(s)])),
    gasPrices: costs.gasPrices,
    l1BaseFeeWei: costs.l1BaseFeeWei,
    sponsorFee,
    fees,
    emissaryConfig,
  })
  const { intentOp, signData, signed } = await buildIntentOp({
    plan,
    requests,
    account,
    recipient,
    destinationChainId,
    destinationExecutions: checked.destinationExecutions,
    preClaimExecutions: checked.preClaimExecutions,
    minGas: checked.minGas,
    now,
    ttlSeconds: parameters.ttlSeconds,
    settlementLayer: 'INTENT_ARBITER',
    signedMetadata,
    server,
    signNow: parameters.sign === 'now',
  })
  const quoted: QuotedIntent = {
    intentOp,
    signedIntentOp: signed,
    signData,
    fundingMethod: plan.method,
    settlementLayer: 'INTENT_ARBITER',
    account,
    recipient,
    destinationChainId,
    originChainIds: plan.chainIds,
    outputs: requests.map((r) => ({
      token: r.token.address,
      symbol: r.symbol,
      decimals: r.token.decimals,
      amount: r.amount,
    })),
    sources: plan.chainIds.map((c) =>
      plan.allocations.flatMap((a) => a.sources.filter((s) => s.chainId === c)),
    ),
    totalCostUsd: usdNumber(userFeeMicroUsd),
    quotedAt: now,
  }
  return { quoted, plan, gas, fees, userFeeMicroUsd, sponsorFee }
}
