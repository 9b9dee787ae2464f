import { type Address, getAddress, type Hex, keccak256, numberToHex, slice } from 'viem'
import { addresses } from '../../contracts/addresses'
import { createStructHasher, deepFreeze } from '../../lib/eip712'
import {
  EIP712_DOMAIN_TYPES,
  EIP712_DOMAIN_TYPES_NO_VERSION,
  type Element as ElementJson,
  type IntentOp,
  MANDATE_TYPES,
  type Mandate as MandateJson,
  MULTICHAIN_COMPACT_TYPES,
  PERMIT_BATCH_WITNESS_TYPES,
  SINGLE_CHAIN_OPS_TYPES,
  type TypedData,
} from '../../spec/index'

/** EIP-712 typed data in its JSON form (integers as decimal strings): viem's `signTypedData` and `hashTypedData` accept it as is. */
export type TypedDataJson = TypedData

export { MANDATE_TYPES }

/**
 * The EIP-712 typed data of an intent, in JSON form (integers as decimal strings, so the objects
 * travel over HTTP unchanged and viem's `signTypedData` / `hashTypedData` take them as they are).
 * The types are exactly the SDK 1.x's and the contracts' (docs/settlement.md: "Typed data the user
 * signs"); `EIP712Domain` is included so any eth_signTypedData_v4 signer can use them too.
 */

/** One ERC-7579 execution inside an {@link OpJson}. */
export type OpsJson = { to: Address; value: string; data: Hex }
/** `Op(bytes32 vt,Ops[] ops)`: the shape of `mandate.preClaimOps` and `mandate.destinationOps`. */
export type OpJson = { vt: Hex; ops: OpsJson[] }
/** `GasRefund(address token,uint256 exchangeRate,uint256 overhead)`. */
export type GasRefundJson = { token: Address; exchangeRate: string; overhead: string }

export const ZERO_VT: Hex = `0x${'00'.repeat(32)}`
/** The Op of no executions (deeply frozen: struct hashers hash it once). */
export const EMPTY_OP: OpJson = deepFreeze({ vt: ZERO_VT, ops: [] })
export const NO_GAS_REFUND: GasRefundJson = deepFreeze({
  token: '0x0000000000000000000000000000000000000000',
  exchangeRate: '0',
  overhead: '0',
})

const tokenOfIdCache = new Map<string, Address>()

/** The token (low 160 bits) of a lock id (memoized: quotes see the same few lock ids again and again). */
export const tokenOfId = (id: bigint | string): Address => {
  const key = typeof id === 'string' ? id : id.toString()
  let token = tokenOfIdCache.get(key)
  if (token === undefined) {
    token = getAddress(slice(numberToHex(BigInt(id), { size: 32 }), 12, 32))
    if (tokenOfIdCache.size >= 4096) tokenOfIdCache.clear()
    tokenOfIdCache.set(key, token)
  }
  return token
}
/** The lock tag (top 12 bytes) of a lock id. */
export const lockTagOfId = (id: bigint | string): Hex => slice(numberToHex(BigInt(id), { size: 32 }), 0, 12)

/** Normalises an Op value (from a mandate) to its JSON form. */
export function toOpJson(op: unknown): OpJson {
  if (!op || typeof op !== 'object') return EMPTY_OP
  const value = op as { vt?: Hex; ops?: { to: Address; value: bigint | string | number; data: Hex }[] }
  if ((value.vt ?? ZERO_VT) === ZERO_VT && !value.ops?.length) return EMPTY_OP
  return {
    vt: value.vt ?? ZERO_VT,
    ops: (value.ops ?? []).map((o) => ({ to: o.to, value: BigInt(o.value).toString(), data: o.data })),
  }
}

/** The Mandate message of an element (docs/settlement.md: "The Mandate witness"). */
export function mandateMessage(mandate: MandateJson) {
  return {
    target: {
      recipient: mandate.recipient,
      tokenOut: mandate.tokenOut.map(([id, amount]) => ({ token: tokenOfId(id), amount })),
      targetChain: mandate.destinationChainId,
      fillExpiry: mandate.fillDeadline,
    },
    minGas: mandate.minGas,
    originOps: toOpJson(mandate.preClaimOps),
    destOps: toOpJson(mandate.destinationOps),
    q: qualifierHash(mandate.qualifier.encodedVal as Hex),
  }
}

const qualifierHashes = new Map<Hex, Hex>()

/** keccak256 of a qualifier's encodedVal (memoized: a handful of distinct values recur in every quote). */
function qualifierHash(encodedVal: Hex): Hex {
  let hash = qualifierHashes.get(encodedVal)
  if (hash === undefined) {
    hash = keccak256(encodedVal)
    if (qualifierHashes.size >= 1024) qualifierHashes.clear()
    qualifierHashes.set(encodedVal, hash)
  }
  return hash
}

const mandateHasher = createStructHasher(MANDATE_TYPES)

const COMPACT_TYPED_DATA_TYPES = typesWithDomain({
  EIP712Domain: EIP712_DOMAIN_TYPES,
  ...MULTICHAIN_COMPACT_TYPES,
})
/** The MultichainCompact's struct types without `EIP712Domain` (deeply frozen): a Compact claim's hashes (settlement/contractArgs.ts). */
export const COMPACT_STRUCT_TYPES = typesWithDomain(MULTICHAIN_COMPACT_TYPES)
const PERMIT2_TYPED_DATA_TYPES = typesWithDomain({
  EIP712Domain: EIP712_DOMAIN_TYPES_NO_VERSION,
  ...PERMIT_BATCH_WITNESS_TYPES,
})
const SINGLE_CHAIN_OPS_TYPED_DATA_TYPES = typesWithDomain({
  EIP712Domain: EIP712_DOMAIN_TYPES,
  ...SINGLE_CHAIN_OPS_TYPES,
})

/** hashStruct(Mandate): the witness the arbiter and the Compact compute (type hashes computed once). */
export function hashMandate(mandate: MandateJson): Hex {
  return mandateHasher.hashStruct('Mandate', mandateMessage(mandate))
}

/** COMPACT: one `MultichainCompact` over every element, on The Compact v1's own domain (not the SDK 1.x's legacy address). */
export function compactTypedData(
  intentOp: Pick<IntentOp, 'sponsor' | 'nonce' | 'expires' | 'elements'>,
): TypedDataJson {
  const first = intentOp.elements[0]
  if (!first) throw new Error('An intent has at least one element.')
  return {
    domain: {
      name: 'The Compact',
      version: '1',
      chainId: Number(first.chainId),
      verifyingContract: addresses.compact,
    },
    types: COMPACT_TYPED_DATA_TYPES,
    primaryType: 'MultichainCompact',
    message: {
      sponsor: intentOp.sponsor,
      nonce: intentOp.nonce,
      expires: intentOp.expires,
      elements: intentOp.elements.map((element) => ({
        arbiter: element.arbiter,
        chainId: element.chainId,
        commitments: element.idsAndAmounts.map(([id, amount]) => ({
          lockTag: lockTagOfId(id),
          token: tokenOfId(id),
          amount,
        })),
        mandate: mandateMessage(element.mandate),
      })),
    },
  }
}

/** PERMIT2: the `PermitBatchWitnessTransferFrom` of one element (spender = its arbiter). */
export function permit2TypedData(element: ElementJson, nonce: string, expires: string): TypedDataJson {
  return {
    domain: { name: 'Permit2', chainId: Number(element.chainId), verifyingContract: addresses.permit2 },
    types: PERMIT2_TYPED_DATA_TYPES,
    primaryType: 'PermitBatchWitnessTransferFrom',
    message: {
      permitted: element.idsAndAmounts.map(([id, amount]) => ({ token: tokenOfId(id), amount })),
      spender: element.arbiter,
      nonce,
      deadline: expires,
      mandate: mandateMessage(element.mandate),
    },
  }
}

/** Parameters of {@link singleChainOpsTypedData}. */
export type SingleChainOpsParameters = {
  account: Address
  nonce: string
  destinationChainId: number
  op: OpJson
  gasRefund?: GasRefundJson | undefined
  executor?: Address | undefined
}

/** Destination ops: the IntentExecutor's `SingleChainOps` on the destination chain. */
export function singleChainOpsTypedData(parameters: SingleChainOpsParameters): TypedDataJson {
  const {
    account,
    nonce,
    destinationChainId,
    op,
    gasRefund = NO_GAS_REFUND,
    executor = addresses.intentExecutor,
  } = parameters
  return {
    domain: {
      name: 'IntentExecutor',
      version: 'v0.0.1',
      chainId: destinationChainId,
      verifyingContract: executor,
    },
    types: SINGLE_CHAIN_OPS_TYPED_DATA_TYPES,
    primaryType: 'SingleChainOps',
    message: { account, nonce, op, gasRefund },
  }
}

/**
 * The `types` of each typed data the service hands out, with `EIP712Domain`: plain copies of the
 * shared definitions, made once and deeply frozen, so every quote can carry the same objects
 * (they go out as JSON; nobody can change them in between).
 */
function typesWithDomain<T extends Record<string, readonly { name: string; type: string }[]>>(types: T) {
  return deepFreeze(
    Object.fromEntries(Object.entries(types).map(([k, v]) => [k, v.map((f) => ({ ...f }))])),
  ) as { [K in keyof T]: { name: string; type: string }[] }
}
