import {
  type Address,
  getAddress,
  type Hex,
  isAddress,
  keccak256,
  numberToHex,
  type PrivateKeyAccount,
  slice,
  type TypedDataDefinition,
} from 'viem'
import { addresses } from '../../contracts/addresses'
import { smartAccountSignature } from '../../lib/smartAccount'
import {
  type Element,
  type IntentOp,
  type Mandate,
  MULTICHAIN_COMPACT_TYPES,
  PERMIT_BATCH_WITNESS_TYPES,
  SINGLE_CHAIN_OPS_TYPES,
} from '../../spec'
import { BaseError } from '../../spec/BaseError'

/**
 * Signs an alps `intentOp` as an integrator's client does (the public SDK 1.x): the client
 * builds the EIP-712 typed data itself from the intent's fields (spec: "Differences between alps
 * and blanc" › Signing; docs/settlement.md: "Typed data the user signs", "IntentOp field →
 * contract argument"). Built here from the spec's IntentOp shape, not from the simulator, so a
 * vendor's intents are signed the same way. viem hashes and signs; nothing is hand-hashed.
 */

/** Thrown when an intentOp cannot be signed (not an IntentOp, unknown funding method). */
export class SignIntentOpError extends BaseError {
  override name = 'Conformance.SignIntentOpError'
}

/**
 * The contract whose EIP-712 domain a signature uses on a chain: The Compact v1
 * (`MultichainCompact`), Permit2 (`PermitBatchWitnessTransferFrom`) or the IntentExecutor
 * (`SingleChainOps`).
 */
export type SigningContracts = (name: 'compact' | 'permit2' | 'intentExecutor', chainId: number) => Address

/** The canonical addresses of contracts/addresses.ts, on every chain. */
export const CANONICAL_SIGNING_CONTRACTS: SigningContracts = (name) => addresses[name]

type TypedData = TypedDataDefinition & {
  domain: NonNullable<TypedDataDefinition['domain']>
  message: Record<string, unknown>
}

const ZERO_VT: Hex = `0x${'00'.repeat(32)}`

/** A 32-byte lock id: token = low 20 bytes, lockTag = top 12 bytes. */
const idBytes = (id: string) => numberToHex(BigInt(id), { size: 32 })
const tokenOfId = (id: string): Address => getAddress(slice(idBytes(id), 12, 32))
const lockTagOfId = (id: string): Hex => slice(idBytes(id), 0, 12)

/** `mandate.preClaimOps` / `destinationOps` as an `Op{vt, ops[]}` (absent: empty). */
function opOf(value: unknown): { vt: Hex; ops: { to: Address; value: bigint; data: Hex }[] } {
  if (!value || typeof value !== 'object') return { vt: ZERO_VT, ops: [] }
  const op = value as { vt?: Hex; ops?: { to: string; value?: string | number; data?: Hex }[] }
  return {
    vt: op.vt ?? ZERO_VT,
    ops: (op.ops ?? []).map((o) => ({
      to: getAddress(o.to),
      value: BigInt(o.value ?? 0),
      data: o.data ?? '0x',
    })),
  }
}

/** The Mandate witness of an element (docs/settlement.md: "The Mandate witness"). */
function mandateMessage(mandate: Mandate) {
  return {
    target: {
      recipient: getAddress(mandate.recipient),
      tokenOut: mandate.tokenOut.map(([id, amount]) => ({ token: tokenOfId(id), amount: BigInt(amount) })),
      targetChain: BigInt(mandate.destinationChainId),
      fillExpiry: BigInt(mandate.fillDeadline),
    },
    minGas: BigInt(mandate.minGas),
    originOps: opOf(mandate.preClaimOps),
    destOps: opOf(mandate.destinationOps),
    q: keccak256(mandate.qualifier.encodedVal as Hex),
  }
}

/** COMPACT: one `MultichainCompact` over every element, The Compact v1's domain on elements[0]'s chain. */
export function multichainCompactTypedData(intentOp: IntentOp, contracts: SigningContracts): TypedData {
  const chainId = Number(intentOp.elements[0]!.chainId)
  return {
    domain: {
      name: 'The Compact',
      version: '1',
      chainId,
      verifyingContract: contracts('compact', chainId),
    },
    types: MULTICHAIN_COMPACT_TYPES,
    primaryType: 'MultichainCompact',
    message: {
      sponsor: getAddress(intentOp.sponsor),
      nonce: BigInt(intentOp.nonce),
      expires: BigInt(intentOp.expires),
      elements: intentOp.elements.map((element) => ({
        arbiter: getAddress(element.arbiter),
        chainId: BigInt(element.chainId),
        commitments: element.idsAndAmounts.map(([id, amount]) => ({
          lockTag: lockTagOfId(id),
          token: tokenOfId(id),
          amount: BigInt(amount),
        })),
        mandate: mandateMessage(element.mandate),
      })),
    },
  }
}

/** PERMIT2: the element's `PermitBatchWitnessTransferFrom` (spender = its arbiter), Permit2's domain on its chain. */
export function permitBatchWitnessTypedData(
  intentOp: IntentOp,
  element: Element,
  contracts: SigningContracts,
): TypedData {
  const chainId = Number(element.chainId)
  return {
    domain: { name: 'Permit2', chainId, verifyingContract: contracts('permit2', chainId) },
    types: PERMIT_BATCH_WITNESS_TYPES,
    primaryType: 'PermitBatchWitnessTransferFrom',
    message: {
      permitted: element.idsAndAmounts.map(([id, amount]) => ({
        token: tokenOfId(id),
        amount: BigInt(amount),
      })),
      spender: getAddress(element.arbiter),
      nonce: BigInt(intentOp.nonce),
      deadline: BigInt(intentOp.expires),
      mandate: mandateMessage(element.mandate),
    },
  }
}

/** Destination ops: the IntentExecutor's `SingleChainOps` on the destination chain (nonce = intent nonce). */
export function singleChainOpsTypedData(intentOp: IntentOp, contracts: SigningContracts): TypedData {
  const mandate = intentOp.elements[0]!.mandate
  const refund = mandate.qualifier.settlementContext.gasRefund
  const chainId = Number(mandate.destinationChainId)
  return {
    domain: {
      name: 'IntentExecutor',
      version: 'v0.0.1',
      chainId,
      verifyingContract: contracts('intentExecutor', chainId),
    },
    types: SINGLE_CHAIN_OPS_TYPES,
    primaryType: 'SingleChainOps',
    message: {
      account: getAddress(intentOp.sponsor),
      nonce: BigInt(intentOp.nonce),
      op: opOf(mandate.destinationOps),
      gasRefund: {
        token:
          refund && isAddress(refund.token) ? getAddress(refund.token) : getAddress(`0x${'00'.repeat(20)}`),
        exchangeRate: BigInt(refund?.exchangeRate ?? 0),
        overhead: BigInt(refund?.overhead ?? 0),
      },
    },
  }
}

/** The typed data a client signs for an intentOp: one per element, and the destination's when it has ops. */
export function intentOpTypedData(
  intentOp: IntentOp,
  contracts: SigningContracts = CANONICAL_SIGNING_CONTRACTS,
): { origin: TypedData[]; destination: TypedData | undefined } {
  if (intentOp.elements.length === 0) throw new SignIntentOpError('The intentOp has no elements.')
  const origin = intentOp.elements.map((element, i) => {
    const method = element.mandate.qualifier.settlementContext.fundingMethod
    if (method === 'COMPACT') return multichainCompactTypedData(intentOp, contracts)
    if (method === 'PERMIT2') return permitBatchWitnessTypedData(intentOp, element, contracts)
    throw new SignIntentOpError(
      `elements[${i}] has fundingMethod ${JSON.stringify(method)}; the runner signs COMPACT and PERMIT2.`,
    )
  })
  const hasDestinationOps = opOf(intentOp.elements[0]!.mandate.destinationOps).ops.length > 0
  return {
    origin,
    destination: hasDestinationOps ? singleChainOpsTypedData(intentOp, contracts) : undefined,
  }
}

/** A signed intent operation: the intentOp's fields plus `originSignatures` and `destinationSignature`. */
export type SignedIntentOpJson = IntentOp & {
  originSignatures: Hex[]
  destinationSignature: Hex
}

/**
 * Signs an intentOp with an EOA as the SDK 1.x does: per element by its
 * `mandate.qualifier.settlementContext.fundingMethod` (PERMIT2 → PermitBatchWitnessTransferFrom,
 * COMPACT → MultichainCompact), and `destinationSignature` = the last origin signature, whose
 * Mandate commits to the destination ops (facts §2; the service verifies it on the destination).
 * Returns the intentOp's fields as given plus the signatures. `notSponsor` signs with a key
 * other than the sponsor's (a wrong signer, which a target must refuse). `smartAccount`: the
 * sponsor is a Nexus smart account and `account` its owner key; each signature is the default
 * validator's (20 zero bytes) followed by the owner's ECDSA over the typed data (facts §2), and
 * the sponsor is not compared with the key (a wrong owner is what the account refuses).
 *
 * @example
 * const signed = await signIntentOp(route.intentOp, privateKeyToAccount(key))
 * await fetch(`${target}/intent-operations`, { method: 'POST', body: JSON.stringify({ signedIntentOp: signed }) })
 */
export async function signIntentOp(
  intentOp: unknown,
  account: PrivateKeyAccount,
  contracts: SigningContracts = CANONICAL_SIGNING_CONTRACTS,
  options: { notSponsor?: boolean; smartAccount?: boolean } = {},
): Promise<SignedIntentOpJson> {
  if (typeof intentOp !== 'object' || intentOp === null || !Array.isArray((intentOp as IntentOp).elements))
    throw new SignIntentOpError('The value to sign is not an intentOp (no elements).', {
      metaMessages: [`Got: ${JSON.stringify(intentOp)?.slice(0, 200)}`],
    })
  const op = intentOp as IntentOp
  if (!options.notSponsor && !options.smartAccount && getAddress(op.sponsor) !== account.address)
    throw new SignIntentOpError(`The intentOp's sponsor ${op.sponsor} is not the signer ${account.address}.`)
  const typedData = intentOpTypedData(op, contracts)
  const sign = async (data: TypedData) => {
    const signature = await account.signTypedData(data)
    return options.smartAccount ? smartAccountSignature(signature) : signature
  }
  const originSignatures = await Promise.all(typedData.origin.map(sign))
  return { ...op, originSignatures, destinationSignature: originSignatures.at(-1)! }
}
