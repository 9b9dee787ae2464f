import type { Address, Hex } from 'viem'
import type { PrivateKeyAccount } from 'viem/accounts'
import { createTypedDataHasher } from '../../lib/eip712'
import { keccak256Bytes } from '../../lib/keccak'
import { recoverSigner } from '../../lib/nativeSign'
import type { IntentOp } from '../../spec'
import { hashMandate } from '../eip712/typedData'

/**
 * The server signature: an EIP-712 signature by the server key over the parts of an IntentOp
 * that matter, so that how numbers are formatted in JSON cannot change what was signed. Anyone
 * can check it against the server's address (the manifest's `signers.server`).
 *
 * `IntentOpQuote(address sponsor,uint256 nonce,uint256 expires,uint256 targetExecutionNonce,QuotedElement[] elements,bytes32 signedMetadata)`
 * `QuotedElement(address arbiter,uint256 chainId,IdAmount[] idsAndAmounts,IdAmount[] spendTokens,bytes32 mandate,string settlementLayer,string fundingMethod)`
 * `IdAmount(uint256 id,uint256 amount)`
 * where `mandate` = hashStruct(Mandate) exactly as the arbiter computes it (it binds recipient,
 * tokenOut, destination, fill deadline, minGas, preClaimOps, destinationOps and
 * keccak256(qualifier.encodedVal)), and `signedMetadata` = keccak256 of the canonical JSON of
 * `signedMetadata` (object keys sorted).
 */
export const SERVER_SIGNATURE_DOMAIN = { name: 'intent-devnet server', version: '1' } as const

export const SERVER_SIGNATURE_TYPES = {
  IntentOpQuote: [
    { name: 'sponsor', type: 'address' },
    { name: 'nonce', type: 'uint256' },
    { name: 'expires', type: 'uint256' },
    { name: 'targetExecutionNonce', type: 'uint256' },
    { name: 'elements', type: 'QuotedElement[]' },
    { name: 'signedMetadata', type: 'bytes32' },
  ],
  QuotedElement: [
    { name: 'arbiter', type: 'address' },
    { name: 'chainId', type: 'uint256' },
    { name: 'idsAndAmounts', type: 'IdAmount[]' },
    { name: 'spendTokens', type: 'IdAmount[]' },
    { name: 'mandate', type: 'bytes32' },
    { name: 'settlementLayer', type: 'string' },
    { name: 'fundingMethod', type: 'string' },
  ],
  IdAmount: [
    { name: 'id', type: 'uint256' },
    { name: 'amount', type: 'uint256' },
  ],
} as const

/** The IntentOp to sign (its `serverSignature` field, if any, is not part of what is signed). */
export type UnsignedIntentOp = IntentOp

/** JSON with object keys sorted, so that key order cannot change the hash. */
export function canonicalJson(value: unknown): string {
  return canonical(value) ?? 'null'
}

/**
 * What `JSON.stringify` writes for `value` with every object's keys sorted and bigints as decimal
 * strings; undefined where JSON.stringify leaves a value out (undefined, functions, symbols).
 */
function canonical(value: unknown): string | undefined {
  if (typeof value === 'bigint') return `"${value.toString()}"`
  if (value === null || typeof value !== 'object') return JSON.stringify(value)
  if (typeof (value as { toJSON?: unknown }).toJSON === 'function')
    return canonical((value as { toJSON: () => unknown }).toJSON())
  if (Array.isArray(value)) return `[${value.map((item) => canonical(item) ?? 'null').join(',')}]`
  const record = value as Record<string, unknown>
  const parts: string[] = []
  for (const key of Object.keys(record).sort()) {
    const encoded = canonical(record[key])
    if (encoded !== undefined) parts.push(`${JSON.stringify(key)}:${encoded}`)
  }
  return `{${parts.join(',')}}`
}

const idAmounts = (pairs: readonly (readonly [string, string])[] | undefined) =>
  (pairs ?? []).map(([id, amount]) => ({ id: BigInt(id), amount: BigInt(amount) }))

/** The typed data the server signs for an IntentOp. */
export function serverSignatureTypedData(intentOp: UnsignedIntentOp) {
  return {
    domain: SERVER_SIGNATURE_DOMAIN,
    types: SERVER_SIGNATURE_TYPES,
    primaryType: 'IntentOpQuote' as const,
    message: {
      sponsor: intentOp.sponsor as Address,
      nonce: BigInt(intentOp.nonce),
      expires: BigInt(intentOp.expires),
      targetExecutionNonce: BigInt(intentOp.targetExecutionNonce),
      elements: intentOp.elements.map((element) => ({
        arbiter: element.arbiter as Address,
        chainId: BigInt(element.chainId),
        idsAndAmounts: idAmounts(element.idsAndAmounts),
        spendTokens: idAmounts(element.spendTokens),
        mandate: hashMandate(element.mandate),
        settlementLayer: element.mandate.qualifier.settlementContext.settlementLayer,
        fundingMethod: element.mandate.qualifier.settlementContext.fundingMethod,
      })),
      signedMetadata: keccak256Bytes(Buffer.from(canonicalJson(intentOp.signedMetadata), 'utf8')),
    },
  }
}

/** Domain separator and type hashes of the server signature, computed once (equal to viem's hashTypedData: eip712.test.ts). */
const serverSignatureHasher = createTypedDataHasher(SERVER_SIGNATURE_DOMAIN, SERVER_SIGNATURE_TYPES)

/** The EIP-712 digest of an IntentOp's server signature (hashTypedData of {@link serverSignatureTypedData}). */
export const serverSignatureDigest = (intentOp: UnsignedIntentOp): Hex =>
  serverSignatureHasher.hashTypedData('IntentOpQuote', serverSignatureTypedData(intentOp).message)

/**
 * Digests this process signed with a server key, with the signature and the signer: recovering
 * the signer of such a (digest, signature) pair can only give that signer, so a submitted IntentOp
 * whose digest and signature are one of them needs no ECDSA recovery (libsecp256k1's recovery
 * and the address's keccak were ~40% of verifyServerSignature). Bounded: past the limit the
 * oldest are forgotten, and those are recovered as before.
 */
const signedDigests = new Map<Hex, { signature: Hex; signer: Address }>()
const MAX_SIGNED_DIGESTS = 2048

/** Signs an IntentOp with the server key: the digest is computed once, then signed as is; returns the 65-byte signature. */
export async function signServerSignature(
  intentOp: UnsignedIntentOp,
  server: PrivateKeyAccount,
): Promise<Hex> {
  const hash = serverSignatureDigest(intentOp)
  const signature = await server.sign({ hash })
  if (signedDigests.size >= MAX_SIGNED_DIGESTS) signedDigests.delete(signedDigests.keys().next().value as Hex)
  signedDigests.set(hash, { signature, signer: server.address })
  return signature
}

/**
 * True when `intentOp.serverSignature` was made by `serverAddress` over this very IntentOp.
 * Any change to a signed field (amounts, ids, recipient, deadlines, ops, metadata) makes it false.
 */
export async function verifyServerSignature(intentOp: IntentOp, serverAddress: Address): Promise<boolean> {
  try {
    const hash = serverSignatureDigest(intentOp)
    const signed = signedDigests.get(hash)
    const signer =
      signed !== undefined && signed.signature === intentOp.serverSignature
        ? signed.signer
        : await recoverSigner({ hash, signature: intentOp.serverSignature as Hex })
    return signer.toLowerCase() === serverAddress.toLowerCase()
  } catch {
    return false
  }
}
