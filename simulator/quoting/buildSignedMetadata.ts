import { zeroAddress } from 'viem'
import type { EmissaryConfig, SignedMetadata, SponsorFee } from '../../spec'
import type { CheckedRouteRequest } from './checkRouteRequest'
import type { RequestFees } from './fees'
import { L1_FEE_PARAMS, OP_STACK_CHAINS } from './gasPrices'
import type { FundingPlan } from './types'

/** Parameters of {@link buildSignedMetadata}. */
export type BuildSignedMetadataParameters = {
  checked: CheckedRouteRequest
  plan: FundingPlan
  /** USD price of every symbol the route uses (ETH, the requested tokens, the sources). */
  tokenPrices: Record<string, number>
  /** Gas price per chain, wei. */
  gasPrices: Readonly<Record<number, bigint>>
  /** The L1 base fee the OP-stack chains' data fees use (chain 1's gas price), wei. */
  l1BaseFeeWei: bigint
  sponsorFee: SponsorFee
  fees: readonly RequestFees[]
  emissaryConfig: EmissaryConfig | undefined
}

/**
 * The L1 fee parameters of the route's OP-stack chains (docs/quoting.md): the L1 base fee (chain
 * 1's gas price in the gas price table), the blob base fee and Ecotone's scalars, the same ones
 * the quote's gas fee charged each OP-stack transaction's L1 data with (gasPrices.ts).
 */
const opGasParamsOf = (chainIds: readonly string[], l1BaseFeeWei: bigint) =>
  Object.fromEntries(
    chainIds
      .filter((chainId) => OP_STACK_CHAINS.has(Number(chainId)))
      .map((chainId) => [
        chainId,
        {
          l1BaseFee: String(l1BaseFeeWei),
          l1BlobBaseFee: String(L1_FEE_PARAMS.l1BlobBaseFeeWei),
          baseFeeScalar: String(L1_FEE_PARAMS.baseFeeScalar),
          blobFeeScalar: String(L1_FEE_PARAMS.blobFeeScalar),
        },
      ]),
  )

/**
 * `requiredDelegations` by chain: the SDK 1.x asks for an EIP-7702 delegation under chain `0`
 * (any chain) and signs one authorization per key, so `0` becomes every chain of the route.
 */
const delegationsByChain = (
  delegations: Readonly<Record<string, unknown>> | undefined,
  chainIds: readonly number[],
): Record<string, unknown> => {
  if (!delegations) return {}
  const { 0: any, ...perChain } = delegations
  if (any === undefined) return { ...delegations }
  return { ...Object.fromEntries(chainIds.map((c) => [String(c), any])), ...perChain }
}

/** The recipient's `emissaryConfig` placeholder: the devnet configures no emissary for a recipient. */
const NO_EMISSARY: EmissaryConfig = {
  validatorAddress: zeroAddress,
  emissaryAddress: zeroAddress,
  emissaryEnable: { allocatorSig: '0x', userSig: '0x' },
  settings: { allocator: zeroAddress },
}

/**
 * The IntentOp's `signedMetadata` for one route (docs/quoting.md): the prices and gas prices it
 * was quoted with, the account (with its funding context and, for a smart account's Compact
 * locks, its emissary config), the recipient, the fees and the pre-claim executions.
 */
export function buildSignedMetadata(parameters: BuildSignedMetadataParameters): SignedMetadata {
  const { checked, plan, tokenPrices, gasPrices, sponsorFee, fees, emissaryConfig } = parameters
  const { request, account, recipient, requests } = checked
  const gasPriceStrings = Object.fromEntries(
    Object.entries(gasPrices).map(([chainId, wei]) => [chainId, String(wei)]),
  )
  const recipientIsSmart = (request.recipient?.accountType ?? 'EOA') !== 'EOA'
  const routeChains = [...new Set([...plan.chainIds, checked.destinationChainId])]
  return {
    tokenPrices,
    gasPrices: gasPriceStrings,
    opGasParams: opGasParamsOf(Object.keys(gasPriceStrings), parameters.l1BaseFeeWei),
    account: {
      address: account.address,
      accountType: account.accountType,
      setupOps: account.setupOps,
      requiredDelegations: delegationsByChain(account.delegations, routeChains),
      accountContext: {
        isSmartAccount: account.isSmartAccount,
        fundingMethod: plan.method,
        using7579: account.isSmartAccount,
      },
      ...(emissaryConfig ? { emissaryConfig } : {}),
    },
    schemeId: 'v1',
    // Always present, with the account's extras (the spec: "the same extras as account").
    recipient: {
      address: recipient,
      accountType: request.recipient?.accountType ?? account.accountType,
      setupOps: request.recipient?.setupOps ?? (request.recipient ? [] : account.setupOps),
      requiredDelegations:
        request.recipient?.delegations ?? (request.recipient ? {} : (account.delegations ?? {})),
      accountContext: request.recipient
        ? { isSmartAccount: recipientIsSmart, using7579: recipientIsSmart }
        : { isSmartAccount: account.isSmartAccount, using7579: account.isSmartAccount },
      emissaryConfig: NO_EMISSARY,
    },
    fees: {
      sponsorFee,
      protocolFees: Object.fromEntries(
        requests.map((r, i) => [r.token.address.toLowerCase(), (fees[i]?.all.protocolFee ?? 0n).toString()]),
      ),
    },
    // The tokens the destination executions receive: the requested tokens, when there are any.
    executionTokensReceived: checked.destinationExecutions?.length
      ? requests.map((r) => r.token.address)
      : [],
    ...(request.preClaimExecutions ? { preClaimExecutions: request.preClaimExecutions } : {}),
  }
}
