import type { EmissaryConfig, SignedMetadata, SponsorFee } from '../../conformance/spec'
import type { CheckedRouteRequest } from './checkRouteRequest'
import type { RequestFees } from './fees'
import type { FundingPlan } from './types'

/** Parameters of {@link buildSignedMetadata}. */
export type BuildSignedMetadataParameters = {
  checked: CheckedRouteRequest
  plan: FundingPlan
  /** USD price of every symbol the route uses (ETH, the requested tokens, the sources). */
  tokenPrices: Record<string, number>
  /** Gas price per chain, wei. */
  gasPrices: Readonly<Record<number, bigint>>
  sponsorFee: SponsorFee
  fees: readonly RequestFees[]
  emissaryConfig: EmissaryConfig | undefined
}

/**
 * The IntentOp's `signedMetadata` for one route (docs/quoting.md): the prices and gas prices it
 * was quoted with, the account (with its funding context and, for a smart account's Compact
 * locks, its emissary config), the recipient, the fees and the pre-claim executions.
 */
export function buildSignedMetadata(parameters: BuildSignedMetadataParameters): SignedMetadata {
  const { checked, plan, tokenPrices, gasPrices, sponsorFee, fees, emissaryConfig } = parameters
  const { request, account, recipient, requests } = checked
  return {
    tokenPrices,
    gasPrices: Object.fromEntries(Object.entries(gasPrices).map(([chainId, wei]) => [chainId, String(wei)])),
    account: {
      address: account.address,
      accountType: account.accountType,
      setupOps: account.setupOps,
      ...(account.delegations ? { requiredDelegations: account.delegations } : {}),
      accountContext: {
        isSmartAccount: account.isSmartAccount,
        fundingMethod: plan.method,
        using7579: account.isSmartAccount,
      },
      ...(emissaryConfig ? { emissaryConfig } : {}),
    },
    schemeId: 'v1',
    ...(request.recipient
      ? {
          recipient: {
            address: recipient,
            accountType: request.recipient.accountType ?? 'EOA',
            setupOps: request.recipient.setupOps ?? [],
          },
        }
      : {}),
    fees: {
      sponsorFee,
      protocolFees: Object.fromEntries(
        requests.map((r, i) => [r.token.address.toLowerCase(), (fees[i]?.all.protocolFee ?? 0n).toString()]),
      ),
    },
    ...(request.preClaimExecutions ? { preClaimExecutions: request.preClaimExecutions } : {}),
  }
}
