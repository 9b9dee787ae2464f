import { z } from 'zod'
import { Address, Hash, Hex } from '../../spec/common'
import { IntentLifecycleStatus } from '../events/schemas'

/**
 * The devnet explorer's read API (`/_devnet/explorer/…`) and its live feed (`GET /_devnet/events`):
 * devnet extensions, keyed like the control API (DESIGN: The explorer). Times are on the devnet
 * clock, in unix seconds unless named `…Ms` or given as ISO 8601.
 */

/** Query of every paged explorer list: at most `limit` items after `cursor` (the previous page's `nextCursor`). DESIGN: the devnet explorer. */
export const ExplorerPageQuery = z.object({
  limit: z.coerce.number().int().min(1).max(200).optional(),
  cursor: z.string().min(1).max(200).optional(),
})
export type ExplorerPageQuery = z.infer<typeof ExplorerPageQuery>

/** Query of GET /_devnet/explorer/intents: a page, or with `search` the one intent whose intentId (blanc) or id it is (none: an empty list). */
export const ExplorerIntentsQuery = ExplorerPageQuery.extend({
  search: z.string().trim().min(1).max(100).optional(),
})
export type ExplorerIntentsQuery = z.infer<typeof ExplorerIntentsQuery>

/** A token and a raw amount on one chain, with the devnet's symbol for it when it knows the token. DESIGN: the devnet explorer. */
export const ExplorerTokenAmount = z.object({
  chainId: z.number().int(),
  token: Address,
  symbol: z.string().nullable(),
  decimals: z.number().int().nullable(),
  amount: z.string(),
})
export type ExplorerTokenAmount = z.infer<typeof ExplorerTokenAmount>

/** One intent as the explorer lists it: who, where, what, and where it is in its lifecycle. DESIGN: the devnet explorer. */
export const ExplorerIntentSummary = z.object({
  id: z.string(),
  /** The blanc quote's intent id; null for an alps submission. */
  intentId: z.string().nullable(),
  version: z.enum(['alps', 'blanc']),
  account: Address,
  recipient: Address,
  originChainIds: z.array(z.number().int()),
  destinationChainId: z.number().int(),
  /** What the account gives, per origin chain. */
  inputs: z.array(ExplorerTokenAmount),
  /** What the recipient gets on the destination. */
  outputs: z.array(ExplorerTokenAmount),
  status: IntentLifecycleStatus,
  createdAt: z.number().int(),
  fillTransactionHash: Hash.nullable(),
  /** `step: reason` of a FAILED intent. */
  failureReason: z.string().nullable(),
})
export type ExplorerIntentSummary = z.infer<typeof ExplorerIntentSummary>

/** GET /_devnet/explorer/intents: newest first, paged. DESIGN: the devnet explorer. */
export const ExplorerIntentList = z.object({
  intents: z.array(ExplorerIntentSummary),
  total: z.number().int(),
  nextCursor: z.string().nullable(),
})
export type ExplorerIntentList = z.infer<typeof ExplorerIntentList>

/** The kinds of step of an intent's timeline, in the order they happen. DESIGN: the devnet explorer. */
export const EXPLORER_STEP_KINDS = [
  'quoted',
  'submitted',
  'fill',
  'claim',
  'completed',
  'failed',
  'expired',
] as const

/** One step of an intent's timeline: when (devnet clock), which chain, which transaction and the gas it used. DESIGN: the devnet explorer. */
export const ExplorerTimelineStep = z.object({
  step: z.enum(EXPLORER_STEP_KINDS),
  status: z.string(),
  /** Unix seconds on the devnet clock; null while the step has not happened. */
  at: z.number().int().nullable(),
  chainId: z.number().int().nullable(),
  transactionHash: Hash.nullable(),
  /** Gas used, from the transaction's receipt (decimal string); null without a mined transaction. */
  gasUsed: z.string().nullable(),
  /** Why the step failed (the decoded revert reason of a failed fill or claim). */
  reason: z.string().nullable(),
})
export type ExplorerTimelineStep = z.infer<typeof ExplorerTimelineStep>

/** An intent's fee parts in USD, as quoted (recomputed from its signed IntentOp); null: a token without a signed price. */
export const ExplorerFees = z.object({
  gasUsd: z.number().nullable(),
  bridgeUsd: z.number().nullable(),
  protocolUsd: z.number().nullable(),
  swapUsd: z.number().nullable(),
  settlementUsd: z.number().nullable(),
  /** What the account gives beyond what the recipient gets, at the signed prices. */
  totalUsd: z.number().nullable(),
  /** Some part was paid by a sponsor (`sponsorSettings`). */
  sponsored: z.boolean(),
  /** The gas prices the quote charged, wei per chain id. */
  gasPricesWei: z.record(z.string(), z.string()),
})
export type ExplorerFees = z.infer<typeof ExplorerFees>

/** GET /_devnet/explorer/intents/{id}: the summary, the timeline and the signatures it was submitted with. DESIGN: the devnet explorer. */
export const ExplorerIntent = ExplorerIntentSummary.extend({
  fees: ExplorerFees,
  fillDeadline: z.number().int(),
  timeline: z.array(ExplorerTimelineStep),
  signatures: z.object({ origin: z.array(Hex), destination: Hex }),
  nonce: z.string(),
})
export type ExplorerIntent = z.infer<typeof ExplorerIntent>

/** Path parameters of GET /_devnet/explorer/intents/{id}. DESIGN: the devnet explorer. */
export const ExplorerIntentParams = z.object({ id: z.string().min(1).max(100) })
export type ExplorerIntentParams = z.infer<typeof ExplorerIntentParams>

/** One blanc quote in the quote store, with its expiry on the devnet clock. DESIGN: the devnet explorer. */
export const ExplorerQuote = z.object({
  intentId: z.string(),
  account: Address,
  destinationChainId: z.number().int(),
  originChainIds: z.array(z.number().int()),
  fundingMethod: z.string(),
  outputs: z.array(ExplorerTokenAmount),
  totalCostUsd: z.number(),
  quotedAt: z.number().int(),
  expiresAt: z.number().int(),
  /** Past its expiry on the devnet clock (a submit answers 404); it goes at the next sweep. */
  expired: z.boolean(),
})
export type ExplorerQuote = z.infer<typeof ExplorerQuote>

/** GET /_devnet/explorer/quotes: the quote store, newest first, paged. DESIGN: the devnet explorer. */
export const ExplorerQuoteList = z.object({
  quotes: z.array(ExplorerQuote),
  total: z.number().int(),
  ttlSeconds: z.number().int(),
  now: z.number().int(),
  nextCursor: z.string().nullable(),
})
export type ExplorerQuoteList = z.infer<typeof ExplorerQuoteList>

/** GET /_devnet/explorer/chains: each chain's head and time, and the devnet clock. DESIGN: the devnet explorer. */
export const ExplorerChains = z.object({
  now: z.number().int(),
  chains: z.array(
    z.object({
      chainId: z.number().int(),
      name: z.string(),
      up: z.boolean(),
      blockNumber: z.string().nullable(),
      blockTimestamp: z.number().int().nullable(),
    }),
  ),
})
export type ExplorerChains = z.infer<typeof ExplorerChains>

/** Path parameters of GET /_devnet/explorer/chains/{chainId}/transactions/{hash}. DESIGN: the devnet explorer. */
export const ExplorerTransactionParams = z.object({
  chainId: z.coerce.number().int().positive(),
  hash: Hash,
})
export type ExplorerTransactionParams = z.infer<typeof ExplorerTransactionParams>

/** A call decoded by the ABI of our contract at its address: function and named arguments (JSON: integers as strings). DESIGN: the devnet explorer. */
export const ExplorerDecodedCall = z.object({
  contract: z.string(),
  functionName: z.string(),
  args: z.array(z.object({ name: z.string(), type: z.string(), value: z.unknown() })),
})
export type ExplorerDecodedCall = z.infer<typeof ExplorerDecodedCall>

/** GET /_devnet/explorer/chains/{chainId}/transactions/{hash}: a transaction, its receipt, and its call decoded. DESIGN: the devnet explorer. */
export const ExplorerTransaction = z.object({
  chainId: z.number().int(),
  hash: Hash,
  from: Address,
  to: Address.nullable(),
  value: z.string(),
  input: Hex,
  blockNumber: z.string().nullable(),
  status: z.enum(['success', 'reverted', 'pending']),
  gasUsed: z.string().nullable(),
  /** The contract at `to` when it is one of ours (by the manifest), else null. */
  contract: z.string().nullable(),
  /** The call decoded by that contract's ABI; null when `to` is not ours or the data does not decode. */
  decoded: ExplorerDecodedCall.nullable(),
})
export type ExplorerTransaction = z.infer<typeof ExplorerTransaction>
