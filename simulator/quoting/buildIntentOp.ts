import { type Address, encodeAbiParameters, getAddress, type Hex } from 'viem'
import type { PrivateKeyAccount } from 'viem/accounts'
import { addresses } from '../../contracts/addresses'
import { toLockId } from '../../lib/lockTag'
import type { Element, IntentOp } from '../../spec'
import { DEVNET_LOCK_TAG } from '../devnet/funding'
import {
  compactTypedData,
  EMPTY_OP,
  NO_GAS_REFUND,
  type OpJson,
  permit2TypedData,
  singleChainOpsTypedData,
  ZERO_VT,
} from '../eip712/typedData'
import { signServerSignature } from '../signing/serverSignature'
import { randomHex } from '../util/random'
import { NothingToFundError } from './errors'
import type { FundingPlan, PlanRequest } from './planFunding'
import type { QuotedAccount, QuotedSignData, SettlementLayer } from './types'

/** An execution as the route request carries it. */
export type ExecutionInput = { to: Address; value: string | number; data: Hex }

/** A fresh 248-bit nonce (never zero, fits every nonce slot; Permit2 uses its bitmap word and bit). */
export const randomNonce = (): bigint => BigInt(`0x${randomHex(31)}`) | 1n

/** Executions as an `Op` (`vt` zero, one op per execution); none: the empty Op. */
export const toOp = (executions: readonly ExecutionInput[] | undefined): OpJson =>
  executions?.length
    ? {
        vt: ZERO_VT,
        // Checksummed here: a request's address may be in any case (spec: `address`), and the
        // typed data that signs the ops takes only a valid checksum.
        ops: executions.map((e) => ({
          to: getAddress(e.to),
          value: BigInt(e.value).toString(),
          data: e.data,
        })),
      }
    : EMPTY_OP

const qualifierValues = new Map<string, Hex>()

/** `qualifier.encodedVal`: abi.encode(settlementLayer, fundingMethod, using7579) (a few values, each encoded once). */
function qualifierValue(settlementLayer: string, fundingMethod: string, using7579: boolean): Hex {
  const key = `${settlementLayer}|${fundingMethod}|${using7579}`
  let value = qualifierValues.get(key)
  if (value === undefined) {
    value = encodeAbiParameters(
      [{ type: 'string' }, { type: 'string' }, { type: 'bool' }],
      [settlementLayer, fundingMethod, using7579],
    )
    qualifierValues.set(key, value)
  }
  return value
}

/**
 * `() => the IntentOp with its server signature`, signed on the first call. Made here, not inside
 * buildIntentOp, so that a stored blanc quote keeps only the IntentOp and the key alive, not
 * everything buildIntentOp's scope held.
 */
export function signOnce(unsigned: IntentOp, server: PrivateKeyAccount): () => Promise<IntentOp> {
  let signing: Promise<IntentOp> | undefined
  return () => {
    signing ??= signServerSignature(unsigned, server).then((serverSignature) => ({
      ...unsigned,
      serverSignature,
    }))
    return signing
  }
}

/** Parameters of {@link buildIntentOp}. */
export type BuildIntentOpParameters = {
  plan: FundingPlan
  requests: readonly PlanRequest[]
  account: QuotedAccount
  recipient: Address
  destinationChainId: number
  destinationExecutions?: readonly ExecutionInput[] | undefined
  preClaimExecutions?: Record<string, readonly ExecutionInput[]> | undefined
  minGas: bigint
  now: number
  /** Quote lifetime: the fill deadline is `now + ttl + fillWindow`. */
  ttlSeconds: number
  settlementLayer: SettlementLayer
  signedMetadata: IntentOp['signedMetadata']
  server: PrivateKeyAccount
  nonce?: bigint | undefined
  targetExecutionNonce?: bigint | undefined
  /**
   * Sign now (default), or leave `intentOp.serverSignature` as `0x` and sign when `signed()` is
   * first called: a blanc quote's IntentOp stays on the server, so only the route that is
   * submitted ever needs the server's signature.
   */
  signNow?: boolean | undefined
}

/** An IntentOp as quoted, the typed data the user signs, and the IntentOp with its server signature. */
export type BuiltIntentOp = {
  /** Signed when built with `signNow` (the default); otherwise `serverSignature` is `0x`. */
  intentOp: IntentOp
  signData: QuotedSignData
  /** The IntentOp with its server signature (signed once, on the first call, when not signed yet). */
  signed(): Promise<IntentOp>
}

/** Seconds the relayer has to fill after the quote expires (`fillDeadline = now + ttl + this`). */
export const FILL_WINDOW_SECONDS = 600
/** Seconds the relayer has to claim after the fill deadline (`expires = fillDeadline + this`). */
export const CLAIM_WINDOW_SECONDS = 3600

/**
 * Builds the IntentOp of a funding plan as docs/settlement.md maps it to the contracts (one
 * element per origin chain, real lock ids, the Mandate, the qualifier), signs it with the server
 * key, and makes the typed data the user signs (blanc `signData`).
 */
export async function buildIntentOp(parameters: BuildIntentOpParameters): Promise<BuiltIntentOp> {
  const { plan, requests, account, recipient, destinationChainId, now, ttlSeconds, settlementLayer } =
    parameters
  const nonce = (parameters.nonce ?? randomNonce()).toString()
  const targetExecutionNonce = (parameters.targetExecutionNonce ?? randomNonce()).toString()
  const fillDeadline = String(now + ttlSeconds + FILL_WINDOW_SECONDS)
  const expires = String(now + ttlSeconds + FILL_WINDOW_SECONDS + CLAIM_WINDOW_SECONDS)
  const destinationOps = toOp(parameters.destinationExecutions)
  const tokenOut = requests.map((r): [string, string] => [
    toLockId(DEVNET_LOCK_TAG, r.token.address).toString(),
    r.amount.toString(),
  ])
  // Every field the spec lists is present; bridgeFill and prefundAmount are placeholders (the
  // relayer fills from its own funds: no OFT bridge, no prefund; docs/quoting.md).
  const qualifierOf = (chainId: number) => {
    const layer: SettlementLayer = chainId === destinationChainId ? 'SAME_CHAIN' : settlementLayer
    return {
      settlementContext: {
        settlementLayer: layer,
        fundingMethod: plan.method,
        using7579: account.isSmartAccount,
        gasRefund: { token: NO_GAS_REFUND.token, exchangeRate: 0, overhead: 0 },
        prefundAmount: 0,
        bridgeFill: { destinationChainId, type: 'OFT' },
      },
      encodedVal: qualifierValue(layer, plan.method, account.isSmartAccount),
    }
  }

  // Nothing requested and every fee sponsored: no chain funds anything, there is no intent.
  if (plan.chainIds.length === 0) throw new NothingToFundError()
  const elements: Element[] = plan.chainIds.map((chainId) => {
    const idsAndAmounts = new Map<bigint, bigint>()
    for (const allocation of plan.allocations)
      for (const source of allocation.sources)
        if (source.chainId === chainId)
          idsAndAmounts.set(source.lockId, (idsAndAmounts.get(source.lockId) ?? 0n) + source.amount)
    const pairs = [...idsAndAmounts].map(([id, amount]): [string, string] => [
      id.toString(),
      amount.toString(),
    ])
    return {
      arbiter: addresses.arbiter,
      chainId: String(chainId),
      idsAndAmounts: pairs,
      spendTokens: pairs,
      swapOrigins: {},
      mandate: {
        recipient,
        tokenOut,
        destinationChainId: String(destinationChainId),
        fillDeadline,
        preClaimOps: toOp(parameters.preClaimExecutions?.[String(chainId)]),
        destinationOps,
        qualifier: qualifierOf(chainId),
        minGas: parameters.minGas.toString(),
        swapDestinations: [],
      },
    }
  })

  const unsigned: IntentOp = {
    sponsor: account.address,
    nonce,
    expires,
    elements,
    serverSignature: '0x',
    signedMetadata: parameters.signedMetadata,
    targetExecutionNonce,
    signedAuthorizations: [],
    recipientSignedAuthorizations: [],
  }
  const signed = signOnce(unsigned, parameters.server)
  const intentOp = parameters.signNow === false ? unsigned : await signed()

  // COMPACT: one MultichainCompact over every element, the same typed data for each (built once).
  const compact = plan.method === 'COMPACT' ? compactTypedData(intentOp) : undefined
  const origin = compact
    ? elements.map(() => compact)
    : elements.map((element) => permit2TypedData(element, nonce, expires))
  const destinationParameters = { account: account.address, destinationChainId, op: destinationOps }
  const signData: QuotedSignData = {
    origin,
    destination: singleChainOpsTypedData({ ...destinationParameters, nonce }),
    ...(destinationOps.ops.length
      ? {
          targetExecution: singleChainOpsTypedData({ ...destinationParameters, nonce: targetExecutionNonce }),
        }
      : {}),
  }
  return { intentOp, signData, signed }
}
