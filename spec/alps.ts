import { z } from 'zod'
import { SignedMetadataAccount } from './account'
import { Address, Hex, IntegerString } from './common'
import { Execution } from './route'

/** An `[id string, amount string]` pair (spec: Resources › Element). */
export const IdAndAmount = z.tuple([IntegerString, IntegerString])
export type IdAndAmount = z.infer<typeof IdAndAmount>

/**
 * Authorization: a signed EIP-7702 authorization (spec: Resources › IntentOp). The spec types
 * `nonce` as a string; the public SDK 1.x sends viem's number, so both are accepted (a widened
 * request validation, which needs no new version).
 */
export const Authorization = z.looseObject({
  chainId: z.number().int().nonnegative(),
  address: Address,
  nonce: z.union([z.string().regex(/^\d+$/), z.number().int().nonnegative()]),
  yParity: z.number().int().min(0).max(1),
  r: Hex,
  s: Hex,
})
export type Authorization = z.infer<typeof Authorization>

/** settlementContext of a Mandate's qualifier (spec: Resources › Mandate). */
export const SettlementContext = z.looseObject({
  /** Known: `INTENT_EXECUTOR`; unknown values are allowed (spec: Versioning §4). */
  settlementLayer: z.string(),
  using7579: z.boolean().optional(),
  /** Known: `NO_FUNDING`; this simulator also reports `COMPACT` and `PERMIT2`. */
  fundingMethod: z.string(),
  gasRefund: z.looseObject({ overhead: z.number(), exchangeRate: z.number(), token: z.string() }).optional(),
  prefundAmount: z.number().optional(),
  bridgeFill: z.looseObject({ destinationChainId: z.number(), type: z.string() }).optional(),
})
export type SettlementContext = z.infer<typeof SettlementContext>

/** SwapDestination (spec: Resources › Mandate). */
export const SwapDestination = z.looseObject({
  tokenIn: z.string(),
  amountIn: z.number(),
  amountOut: z.number(),
  slippage: z.number(),
  quoter: z.string(),
  executions: z.array(Execution),
  outputDecimals: z.number(),
  outputSymbol: z.string(),
})
export type SwapDestination = z.infer<typeof SwapDestination>

/** Mandate: what the filler must deliver on the destination (spec: Resources › Mandate). */
export const Mandate = z.looseObject({
  recipient: Address,
  tokenOut: z.array(IdAndAmount),
  destinationChainId: IntegerString,
  fillDeadline: IntegerString,
  preClaimOps: z.unknown().optional(),
  destinationOps: z.unknown().optional(),
  qualifier: z.looseObject({ settlementContext: SettlementContext, encodedVal: Hex }),
  minGas: IntegerString,
  swapDestinations: z.array(SwapDestination).optional(),
})
export type Mandate = z.infer<typeof Mandate>

/** Element: the part of an intent on one origin chain (spec: Resources › Element). */
export const Element = z.looseObject({
  arbiter: Address,
  chainId: IntegerString,
  idsAndAmounts: z.array(IdAndAmount),
  spendTokens: z.array(IdAndAmount).optional(),
  mandate: Mandate,
  swapOrigins: z.record(z.string(), z.unknown()).optional(),
})
export type Element = z.infer<typeof Element>

/** `{relayer, protocol}` sponsor fee (spec: SignedMetadata; IntentCost). */
export const SponsorFee = z.looseObject({ relayer: z.number(), protocol: z.number() })
export type SponsorFee = z.infer<typeof SponsorFee>

/** SignedMetadata: prices, gas and the account the quote was built for (spec: Resources › SignedMetadata). */
export const SignedMetadata = z.looseObject({
  tokenPrices: z.record(z.string(), z.number()),
  gasPrices: z.record(z.string(), IntegerString),
  opGasParams: z
    .record(
      z.string(),
      z.looseObject({
        l1BaseFee: z.string(),
        l1BlobBaseFee: z.string(),
        baseFeeScalar: z.string(),
        blobFeeScalar: z.string(),
      }),
    )
    .optional(),
  account: SignedMetadataAccount,
  schemeId: z.string().optional(),
  recipient: SignedMetadataAccount.optional(),
  fees: z
    .looseObject({ sponsorFee: SponsorFee, protocolFees: z.record(z.string(), IntegerString) })
    .optional(),
  executionTokensReceived: z.array(Address).optional(),
  preClaimExecutions: z.record(z.string(), z.unknown()).optional(),
})
export type SignedMetadata = z.infer<typeof SignedMetadata>

/** IntentOp: the server-signed order bundle of version alps (spec: Resources › IntentOp). */
export const IntentOp = z.looseObject({
  sponsor: Address,
  nonce: IntegerString,
  expires: IntegerString,
  elements: z.array(Element).min(1),
  serverSignature: Hex,
  signedMetadata: SignedMetadata,
  targetExecutionNonce: IntegerString,
  signedAuthorizations: z.array(Authorization).optional(),
  recipientSignedAuthorizations: z.array(Authorization).optional(),
})
export type IntentOp = z.infer<typeof IntentOp>

/** FeeParts: fee components in raw token units (spec: Resources › IntentCost). */
export const FeeParts = z.looseObject({
  gasFee: IntegerString,
  bridgeFee: IntegerString,
  protocolFee: IntegerString,
  swapFee: IntegerString,
  settlementFee: IntegerString,
})
export type FeeParts = z.infer<typeof FeeParts>

/**
 * A `number` of a response that can exceed 2^53 (raw token units; the spec types it `number`):
 * a JSON number, or the exact decimal string a big-number-aware reader makes of one past 2^53
 * (the conformance runner reads bodies so: conformance/runner/parseJsonExact.ts). A digit
 * string within 2^53 can only be a JSON string on the wire, which is not the spec's number.
 */
const ExactNumber = z.union([
  z.number(),
  z
    .string()
    .regex(/^\d+$/)
    .refine((digits) => !Number.isSafeInteger(Number(digits)), {
      message: 'a number: a string only for an integer past 2^53 read exactly',
    }),
])

/** IntentCost: what the intent spends, receives and costs (spec: Resources › IntentCost). */
export const IntentCost = z.looseObject({
  hasFulfilledAll: z.boolean(),
  tokensSpent: z.record(z.string(), z.unknown()),
  tokensReceived: z.array(
    z.looseObject({
      tokenAddress: z.string(),
      // A number (it loses precision past 2^53, docs/quoting.md › Numbers); read exactly, such a
      // number is its decimal string, which is accepted too.
      amountSpent: ExactNumber,
      targetAmount: ExactNumber,
      fee: ExactNumber,
      feeBreakdown: FeeParts,
      feesByToken: z.record(z.string(), z.looseObject({ amount: IntegerString, breakdown: FeeParts })),
      hasFulfilled: z.boolean(),
    }),
  ),
  sponsorFee: SponsorFee,
  gasCost: z.looseObject({
    originChains: z.array(z.looseObject({ chainId: z.number(), gasUSD: z.number() })),
    destination: z.looseObject({ chainId: z.number(), gasUSD: z.number() }),
    totalUSD: z.number(),
  }),
  feeBreakdownUSD: z.looseObject({
    gasFeeUSD: z.number(),
    bridgeFeeUSD: z.number(),
    protocolFeeUSD: z.number(),
    swapFeeUSD: z.number(),
    settlementFeeUSD: z.number(),
    totalFeeUSD: z.number(),
  }),
})
export type IntentCost = z.infer<typeof IntentCost>

/** Route response of version alps (spec: Resources › Route response, version alps). */
export const AlpsRouteResponse = z.looseObject({
  intentOp: IntentOp,
  intentCost: IntentCost,
  tokenRequirements: z.record(z.string(), z.unknown()).optional(),
})
export type AlpsRouteResponse = z.infer<typeof AlpsRouteResponse>
