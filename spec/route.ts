import { z } from 'zod'
import { Account } from './account'
import { Address, ChainIdKey, HexBytes, IntegerLike, IntegerString } from './common'

/** At most this many preClaimExecutions operations on one chain (spec: Limits). */
export const PRE_CLAIM_MAX_OPS_PER_CHAIN = 10
/** At most this many chains in preClaimExecutions (spec: Limits). */
export const PRE_CLAIM_MAX_CHAINS = 5

/** Token request: a token wanted on the destination chain (spec: Resources › Token request). */
export const TokenRequest = z.object({
  tokenAddress: Address,
  amount: IntegerString,
})
export type TokenRequest = z.infer<typeof TokenRequest>

/** Execution: a call to run on a chain (spec: Resources › Execution (destination call)). */
export const Execution = z.object({
  to: Address,
  value: IntegerLike,
  data: HexBytes,
  senderAddressPlaceholder: z.string().optional(),
  recipientAddressPlaceholder: z.string().optional(),
})
export type Execution = z.infer<typeof Execution>

/** The chain-and-token filters of accountAccessList (spec: Resources › Route request). */
const AccessFilter = z.object({
  chainIds: z.array(IntegerLike).optional(),
  /** Token addresses or symbols. */
  tokens: z.array(z.string().min(1)).optional(),
  /** chainId -> token addresses or symbols. */
  chainTokens: z.record(ChainIdKey, z.array(z.string().min(1))).optional(),
})

/** accountAccessList: which chains and tokens the account may use (spec: Resources › Route request). */
export const AccountAccessList = AccessFilter.extend({ exclude: AccessFilter.optional() })
export type AccountAccessList = z.infer<typeof AccountAccessList>

/** options of a route request (spec: Resources › Route request). */
export const RouteOptions = z.object({
  topupCompact: z.boolean().optional(),
  settlementLayers: z.array(z.string()).optional(),
  sponsorSettings: z
    .object({
      gasSponsored: z.boolean().optional(),
      bridgeFeesSponsored: z.boolean().optional(),
      swapFeesSponsored: z.boolean().optional(),
    })
    .optional(),
  feeToken: z.string().optional(),
})
export type RouteOptions = z.infer<typeof RouteOptions>

/**
 * preClaimExecutions: chainId -> calls before the claim on that chain. At most 10 operations per
 * chain and at most 5 chains (spec: Resources › Route request; Limits).
 */
export const PreClaimExecutions = z
  .record(
    ChainIdKey,
    z
      .array(Execution)
      .max(
        PRE_CLAIM_MAX_OPS_PER_CHAIN,
        `preClaimExecutions allows at most ${PRE_CLAIM_MAX_OPS_PER_CHAIN} operations per chain`,
      ),
  )
  .refine((value) => Object.keys(value).length <= PRE_CLAIM_MAX_CHAINS, {
    message: `preClaimExecutions allows at most ${PRE_CLAIM_MAX_CHAINS} chains`,
  })

/** Route request, the body of POST /intents/route (spec: Resources › Route request; Endpoints). */
export const RouteRequest = z.object({
  destinationChainId: IntegerLike,
  tokenRequests: z.array(TokenRequest).min(1, 'at least one token request is needed'),
  account: Account,
  destinationExecutions: z.array(Execution).optional(),
  preClaimExecutions: PreClaimExecutions.optional(),
  destinationGasUnits: IntegerLike.optional(),
  accountAccessList: AccountAccessList.optional(),
  recipient: Account.optional(),
  options: RouteOptions.optional(),
})
export type RouteRequest = z.infer<typeof RouteRequest>
