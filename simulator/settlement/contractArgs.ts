import { type Address, concat, getAddress, type Hex, keccak256, zeroAddress } from 'viem'
import { addresses } from '../../contracts/addresses'
import { hashStruct } from '../../lib/hashTypedData'
import type { Element, IntentOp, Mandate } from '../../spec'
import {
  COMPACT_STRUCT_TYPES,
  compactTypedData,
  NO_GAS_REFUND,
  tokenOfId,
  toOpJson,
  ZERO_VT,
} from '../eip712/typedData'
import { mandateOf } from '../intents/intentOp'
import type { SignedIntent } from '../intents/types'

/**
 * Pure mapping of an IntentOp (and the caller's signatures) to the arguments of the settlement
 * contracts, exactly as docs/settlement.md's "IntentOp field → contract argument" table gives it.
 * No chain access here: the relayer calls these and sends the result.
 */

/** `Op(bytes32 vt,Ops[] ops)` as viem's typed ABI wants it. */
export type OpArg = { vt: Hex; ops: readonly { to: Address; value: bigint; data: Hex }[] }
/** `Target(address recipient,Token[] tokenOut,uint256 targetChain,uint256 fillExpiry)`. */
export type TargetArg = {
  recipient: Address
  tokenOut: readonly { token: Address; amount: bigint }[]
  targetChain: bigint
  fillExpiry: bigint
}
/** `Mandate(Target target,uint128 minGas,Op originOps,Op destOps,bytes32 q)`. */
export type MandateArg = { target: TargetArg; minGas: bigint; originOps: OpArg; destOps: OpArg; q: Hex }

/** How an element is funded (`qualifier.settlementContext.fundingMethod`). */
export function fundingMethodOf(element: Element): 'COMPACT' | 'PERMIT2' | string {
  return element.mandate.qualifier.settlementContext.fundingMethod
}

/** An Op (mandate.preClaimOps / destinationOps) as a typed argument. */
export function toOpArg(op: unknown): OpArg {
  const json = toOpJson(op)
  return {
    vt: json.vt,
    ops: json.ops.map((o) => ({ to: getAddress(o.to), value: BigInt(o.value), data: o.data })),
  }
}

/** The fill's Target from a mandate. */
export function toTargetArg(mandate: Mandate): TargetArg {
  return {
    recipient: getAddress(mandate.recipient),
    tokenOut: mandate.tokenOut.map(([id, amount]) => ({ token: tokenOfId(id), amount: BigInt(amount) })),
    targetChain: BigInt(mandate.destinationChainId),
    fillExpiry: BigInt(mandate.fillDeadline),
  }
}

/** The Mandate witness of an element as a typed argument. */
export function toMandateArg(mandate: Mandate): MandateArg {
  return {
    target: toTargetArg(mandate),
    minGas: BigInt(mandate.minGas),
    originOps: toOpArg(mandate.preClaimOps),
    destOps: toOpArg(mandate.destinationOps),
    q: keccak256(mandate.qualifier.encodedVal as Hex),
  }
}

/** True when the intent carries destination ops for the IntentExecutor. */
export function hasDestinationOps(intentOp: IntentOp): boolean {
  return toOpJson(mandateOf(intentOp).destinationOps).ops.length > 0
}

/** The native value the fill must carry: the sum of tokenOut entries whose token is the zero address. */
export function fillValue(intentOp: IntentOp): bigint {
  return toTargetArg(mandateOf(intentOp))
    .tokenOut.filter((t) => t.token === zeroAddress)
    .reduce((sum, t) => sum + t.amount, 0n)
}

/** `IntentFiller.fill(sponsor, nonce, target, minGas, destination)` arguments. */
export function fillArgs(signed: SignedIntent) {
  const { intentOp } = signed
  const mandate = mandateOf(intentOp)
  const withOps = hasDestinationOps(intentOp)
  const refund = mandate.qualifier.settlementContext.gasRefund
  return [
    getAddress(intentOp.sponsor),
    BigInt(intentOp.nonce),
    toTargetArg(mandate),
    BigInt(mandate.minGas),
    {
      executor: withOps ? addresses.intentExecutor : zeroAddress,
      ops: {
        account: getAddress(intentOp.sponsor),
        nonce: BigInt(intentOp.nonce),
        op: withOps ? toOpArg(mandate.destinationOps) : { vt: ZERO_VT, ops: [] },
        gasRefund: refund
          ? {
              token: getAddress(refund.token),
              exchangeRate: BigInt(refund.exchangeRate),
              overhead: BigInt(refund.overhead),
            }
          : {
              token: NO_GAS_REFUND.token,
              exchangeRate: BigInt(NO_GAS_REFUND.exchangeRate),
              overhead: BigInt(NO_GAS_REFUND.overhead),
            },
      },
      signature: withOps ? signed.destinationSignature : '0x',
    },
  ] as const
}

const idsAndAmountsArg = (element: Element) =>
  element.idsAndAmounts.map(([id, amount]) => [BigInt(id), BigInt(amount)] as readonly [bigint, bigint])

/** `IntentArbiter.claimPermit2(params)` argument for element `index`. */
export function permit2ClaimArg(signed: SignedIntent, index: number) {
  const { intentOp } = signed
  const element = elementAt(intentOp, index)
  return {
    sponsor: getAddress(intentOp.sponsor),
    nonce: BigInt(intentOp.nonce),
    expires: BigInt(intentOp.expires),
    idsAndAmounts: idsAndAmountsArg(element),
    mandate: toMandateArg(element.mandate),
    signature: signatureAt(signed, index),
  }
}

/** The MultichainCompact the sponsor signed, and the hashes a Compact claim needs. */
export function compactHashes(intentOp: IntentOp): { claimHash: Hex; elementHashes: Hex[] } {
  const { message } = compactTypedData(intentOp)
  const types = COMPACT_STRUCT_TYPES
  const { elements } = message
  if (!Array.isArray(elements) || !elements.every(isStruct))
    throw new Error('The MultichainCompact message has no elements.')
  return {
    claimHash: hashStruct({ types, primaryType: 'MultichainCompact', data: message }),
    elementHashes: elements.map((e) => hashStruct({ types, primaryType: 'Element', data: e })),
  }
}

/** A struct value of a typed-data message (an object, not an array). */
const isStruct = (value: unknown): value is { readonly [field: string]: unknown } =>
  typeof value === 'object' && value !== null && !Array.isArray(value)

/** The digest the allocator signs for a claim on one chain: keccak256(0x1901 ‖ Compact domain separator ‖ claimHash). */
export function allocatorDigest(compactDomainSeparator: Hex, claimHash: Hex): Hex {
  return keccak256(concat(['0x1901', compactDomainSeparator, claimHash]))
}

/** `IntentArbiter.claimCompact(params)` argument for element `index`, given the allocator's signature. */
export function compactClaimArg(signed: SignedIntent, index: number, allocatorData: Hex) {
  const { intentOp } = signed
  const element = elementAt(intentOp, index)
  const { elementHashes } = compactHashes(intentOp)
  return {
    sponsor: getAddress(intentOp.sponsor),
    nonce: BigInt(intentOp.nonce),
    expires: BigInt(intentOp.expires),
    idsAndAmounts: idsAndAmountsArg(element),
    mandate: toMandateArg(element.mandate),
    elementIndex: BigInt(index),
    notarizedChainId: BigInt(elementAt(intentOp, 0).chainId),
    additionalChains: elementHashes.filter((_, i) => i !== index),
    sponsorSignature: signatureAt(signed, index),
    allocatorData,
  }
}

function elementAt(intentOp: IntentOp, index: number): Element {
  const element = intentOp.elements[index]
  if (!element) throw new Error(`The intent has no element ${index}.`)
  return element
}

function signatureAt(signed: SignedIntent, index: number): Hex {
  const signature = signed.originSignatures[index]
  if (!signature) throw new Error(`No origin signature for element ${index}.`)
  return signature
}
