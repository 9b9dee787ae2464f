import type { Address, Hex } from 'viem'
import type { TokenInfo } from '../../contracts/addresses'
import type { Account, AccountAccessList, IntentOp, Portfolio, RouteRequest } from '../../spec'
import type { TypedDataJson } from '../eip712/typedData'

/**
 * How the user's funds reach the arbiter on an origin chain.
 * - `COMPACT`: a `MultichainCompact` over the account's Compact locks (one signature for every element).
 * - `PERMIT2`: one `PermitBatchWitnessTransferFrom` per element, over wallet tokens approved to Permit2.
 */
export type FundingMethod = 'COMPACT' | 'PERMIT2'

/**
 * The settlement layers the devnet quotes (docs/quoting.md, "Enumerations"): `INTENT_ARBITER`, a
 * variant of our own (claims through the IntentArbiter from Compact locks or Permit2; the SDK 1.x
 * treats it as unknown and falls back to signing the funding method's typed data), and the spec's
 * `SAME_CHAIN` for an element on the destination chain. Not `INTENT_EXECUTOR`: with that value the
 * SDK 1.x signs SingleChainOps for every origin element, which no claim can use.
 */
export type SettlementLayer = 'INTENT_ARBITER' | 'SAME_CHAIN'

/** Account kinds the service accepts (`account.accountType`); `ERC7579` is what the public SDK sends for a smart account. */
export const ACCOUNT_TYPES = ['EOA', 'smartAccount', 'ERC7579'] as const
/** One of {@link ACCOUNT_TYPES}. */
export type AccountType = (typeof ACCOUNT_TYPES)[number]

/** The account a quote was built for, as the settlement layer needs it. */
export type QuotedAccount = {
  address: Address
  accountType: AccountType
  /** True for smart accounts (`smartAccount`, `ERC7579`): signatures are ERC-1271, ops run through the executor module. */
  isSmartAccount: boolean
  setupOps: { to: Address; data: Hex }[]
  /** The request's `account.delegations`, answered as `signedMetadata.account.requiredDelegations`. */
  delegations: Account['delegations']
}

/** The typed data the user signs for one quote (blanc `signData`). */
export type QuotedSignData = {
  /** One per element, in `intentOp.elements` order (COMPACT: one MultichainCompact, repeated for each element). */
  origin: TypedDataJson[]
  /** `SingleChainOps` (IntentExecutor domain, destination chain) over `mandate.destinationOps`, nonce = intentOp.nonce. */
  destination: TypedDataJson
  /** `SingleChainOps` with nonce = `targetExecutionNonce` (present when there are destination ops). */
  targetExecution?: TypedDataJson | undefined
}

/** One funding source of an element: a Compact lock or a wallet token, and how much is taken from it. */
export type FundingSource = {
  chainId: number
  token: Address
  symbol: string
  decimals: number
  /** The Compact lock id (COMPACT), or the lock id of the allocator's tag over the token (PERMIT2: only the low 160 bits matter). */
  lockId: bigint
  /** Raw units of `token` taken from the user. */
  amount: bigint
  /** The requested (destination) token this source pays for (absent: a source of the same token). */
  forToken?: Address | undefined
  /** What it pays for, in raw units of the requested token (absent: `amount`, same token). */
  value?: bigint | undefined
  /** SAME token, WRAP (ETH <-> WETH, 1:1) or SWAP (converted at the price table, swap fee). */
  kind?: 'SAME' | 'WRAP' | 'SWAP' | undefined
}

/**
 * A quote as the service keeps it: the blanc quote store holds one per route (`intentId`), and
 * the alps response is made from it. `intentOp` is exactly the JSON the caller receives
 * (alps `intentOp`, with `serverSignature`), so settlement can check it with
 * `verifyServerSignature(intentOp, serverAddress)` (simulator/signing/serverSignature.ts).
 */
export type QuotedIntent = {
  /**
   * The IntentOp as quoted. An alps quote's is signed (it is the response); a blanc quote's
   * `serverSignature` is `0x` until {@link QuotedIntent.signedIntentOp} is called, at submission.
   */
  intentOp: IntentOp
  /** The IntentOp with its server signature (signed on the first call if it was not yet). */
  signedIntentOp(): Promise<IntentOp>
  signData: QuotedSignData
  fundingMethod: FundingMethod
  settlementLayer: SettlementLayer
  account: QuotedAccount
  /** Where the tokens go (`mandate.recipient`). */
  recipient: Address
  destinationChainId: number
  /** `elements[i].chainId`, in order. */
  originChainIds: number[]
  /** The token requests (destination tokens and amounts), in request order. */
  outputs: { token: Address; symbol: string; decimals: number; amount: bigint }[]
  /** What each element takes, per origin chain (same order as the elements). */
  sources: FundingSource[][]
  /** Total user cost in USD (the blanc sort key). */
  totalCostUsd: number
  /** Devnet clock time of the quote, unix seconds. */
  quotedAt: number
}

/**
 * What the blanc quote store keeps of a route until it is submitted (simulator/quoting/toStoredQuote.ts):
 * the IntentOp (signed at submission), the account's address and setup ops, and what the route
 * takes and gives. The typed data to sign and the request's delegations went out in the route
 * itself and are not needed again. The store keeps it as deflated JSON, ~340 bytes of string a
 * route (createStoredQuoteCodec; scripts/bench/quoteMemory.ts, BENCHMARKS.md).
 */
export type StoredQuotedIntent = Pick<
  QuotedIntent,
  | 'intentOp'
  | 'signedIntentOp'
  | 'fundingMethod'
  | 'destinationChainId'
  | 'originChainIds'
  | 'outputs'
  | 'sources'
  | 'totalCostUsd'
  | 'quotedAt'
> & { account: Pick<QuotedAccount, 'address' | 'setupOps'> }

/** Signature of the server-signature check (implemented in simulator/signing/serverSignature.ts). */
export type VerifyServerSignature = (intentOp: IntentOp, serverAddress: Address) => Promise<boolean>

/** Narrows a portfolio to some chains, and to some tokens (symbol or address) per chain. */
export type PortfolioFilter = {
  chainIds?: readonly number[] | undefined
  tokens?: readonly { chainId: number; token: string }[] | undefined
}

/** What an account holds of one token on one chain (read-only: decoded holdings are frozen and shared). */
export type TokenHolding = {
  readonly token: TokenInfo
  /** Wallet balance (raw units). */
  readonly wallet: bigint
  /** What Permit2 may take from the wallet (allowance to Permit2). */
  readonly permit2Allowance: bigint
  /** The Compact lock id of the allocator's tag over this token. */
  readonly lockId: bigint
  /** ERC-6909 balance of that lock (raw units). */
  readonly locked: bigint
}

/** What an account holds on one chain, and the chain's base fee, read in one Multicall3 call (frozen, shared). */
export type ChainHoldings = {
  readonly chainId: number
  readonly baseFee: bigint
  readonly tokens: readonly TokenHolding[]
}

/** accountAccessList, as the route request carries it (chain ids as numbers or strings). */
export type AccessList = AccountAccessList

/** One wanted token on the destination, with the symbol that funds it on the origins. */
export type PlanRequest = { symbol: string; token: TokenInfo; amount: bigint }

/** What one request takes: its sources, the total it needs (amount + user fees), and how much of it is swapped. */
export type Allocation = {
  need: bigint
  /** Value of the request funded by SWAP sources (raw units of the requested token, swap fee included). */
  swapped: bigint
  sources: FundingSource[]
}

/** A way to fund every request: which chains, and what each source gives. */
export type FundingPlan = {
  method: FundingMethod
  /** Origin chains, destination first if used, then in the order taken. */
  chainIds: number[]
  /** Per request (same order as the requests). */
  allocations: Allocation[]
}

/**
 * What a plan must take per request (amount + the user's fees, WITHOUT the swap fee: the planner
 * adds it, since it depends on how much is swapped), for a set of origin chains and, once known,
 * the plan itself (gas depends on the lock ids per chain).
 */
export type NeedFor = (chainIds: number[], plan?: FundingPlan) => bigint[]

/** What one request falls short of when no plan works (raw units of the requested token). */
export type Shortfall = {
  token: Address
  symbol: string
  required: bigint
  available: bigint
  missing: bigint
}

/**
 * A {@link Shortfall} as the service answers it (alps `tokenRequirements`, blanc
 * `details.tokenRequirements`): raw amounts as decimal strings.
 */
export type TokenRequirement = {
  tokenAddress: Address
  symbol: string
  required: string
  available: string
  missing: string
}
