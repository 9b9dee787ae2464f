import { type Address, getAddress } from 'viem'
import type { TokenInfo } from '../../contracts/addresses'
import type { RouteRequest } from '../../spec'
import type { ExecutionInput } from './buildIntentOp'
import { checkAccessList } from './checkAccessList'
import {
  GasUnitsTooLargeError,
  UnknownAccountTypeError,
  UnknownChainError,
  UnknownTokenError,
} from './errors'
import type { Sponsorship } from './fees'
import { ACCOUNT_TYPES, type AccountType, type PlanRequest, type QuotedAccount } from './types'

/** The Mandate's `minGas` is a uint128 (docs/settlement.md). */
const MAX_MIN_GAS = 2n ** 128n

/** Destination gas units when the request has destination executions and names none. */
const DEFAULT_DESTINATION_GAS_UNITS = 500_000

/** Parameters of {@link checkRouteRequest}. */
export type CheckRouteRequestParameters = {
  request: RouteRequest
  /** The chains the devnet runs. */
  chainIds: readonly number[]
  /** Tokens per chain (native ETH included). */
  tokens: Readonly<Record<number, readonly TokenInfo[]>>
}

/** A route request the service can quote: its facts resolved and typed. */
export type CheckedRouteRequest = {
  request: RouteRequest
  destinationChainId: number
  /** The token requests, resolved to the destination's tokens, in request order. */
  requests: PlanRequest[]
  account: QuotedAccount
  /** Where the tokens go: `recipient.address`, else the account. */
  recipient: Address
  destinationExecutions: ExecutionInput[] | undefined
  preClaimExecutions: Record<string, ExecutionInput[]> | undefined
  /** `destinationGasUnits` (default 500 000) when there are destination executions, else 0. */
  minGas: bigint
  sponsorship: Sponsorship
}

/** Error classes {@link checkRouteRequest} throws. */
export type CheckRouteRequestErrorType =
  | UnknownChainError
  | UnknownAccountTypeError
  | UnknownTokenError
  | GasUnitsTooLargeError

/**
 * Checks a route request against what this devnet runs and resolves it: the destination chain,
 * the account type, the requested tokens on the destination, the access list's chains and tokens,
 * and `destinationGasUnits` (below 2^128). Throws the first Quote.* error it finds.
 */
export function checkRouteRequest(parameters: CheckRouteRequestParameters): CheckedRouteRequest {
  const { request, chainIds, tokens } = parameters
  const destinationChainId = Number(request.destinationChainId)
  if (!chainIds.includes(destinationChainId))
    throw new UnknownChainError(
      `Destination chain ${destinationChainId} is not run by this devnet (chains: ${chainIds.join(', ')}).`,
      { destinationChainId, chains: [...chainIds] },
    )
  const accountType = (request.account.accountType ?? 'EOA') as AccountType
  if (!ACCOUNT_TYPES.includes(accountType))
    throw new UnknownAccountTypeError(request.account.accountType, ACCOUNT_TYPES)
  const destTokens = tokens[destinationChainId] ?? []
  const requests = request.tokenRequests.map((tr): PlanRequest => {
    const token = destTokens.find((t) => t.address.toLowerCase() === tr.tokenAddress.toLowerCase())
    if (!token)
      throw new UnknownTokenError(
        `Unknown token ${tr.tokenAddress} on chain ${destinationChainId} (known: ${destTokens.map((t) => `${t.symbol} ${t.address}`).join(', ')}).`,
        { tokenAddress: tr.tokenAddress, chainId: destinationChainId },
      )
    return { symbol: token.symbol, token, amount: BigInt(tr.amount) }
  })
  checkAccessList({ access: request.accountAccessList, chainIds, tokens })
  const account: QuotedAccount = {
    address: getAddress(request.account.address),
    accountType,
    isSmartAccount: accountType !== 'EOA',
    setupOps: (request.account.setupOps ?? []) as QuotedAccount['setupOps'],
    delegations: request.account.delegations,
  }
  const recipient = getAddress(request.recipient?.address ?? request.account.address)
  const destinationExecutions = request.destinationExecutions as ExecutionInput[] | undefined
  const minGas = destinationExecutions?.length
    ? BigInt(request.destinationGasUnits ?? DEFAULT_DESTINATION_GAS_UNITS)
    : 0n
  if (minGas >= MAX_MIN_GAS) throw new GasUnitsTooLargeError(request.destinationGasUnits)
  const sponsor = request.options?.sponsorSettings
  return {
    request,
    destinationChainId,
    requests,
    account,
    recipient,
    destinationExecutions,
    preClaimExecutions: request.preClaimExecutions as Record<string, ExecutionInput[]> | undefined,
    minGas,
    sponsorship: {
      gas: !!sponsor?.gasSponsored,
      bridge: !!sponsor?.bridgeFeesSponsored,
      swap: !!sponsor?.swapFeesSponsored,
    },
  }
}
