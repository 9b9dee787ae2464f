import secp256k1 from 'secp256k1'
import {
  type Address,
  type Hex,
  hashMessage,
  recoverAddress,
  type SerializeTransactionFn,
  serializeTransaction,
  type TransactionSerializable,
} from 'viem'
import { type PrivateKeyAccount, publicKeyToAddress, toAccount } from 'viem/accounts'
import { hashAuthorization } from 'viem/utils'
import { type AnyTypedDataDefinition, hashTypedData } from './hashTypedData'
import { keccak256Bytes, keccak256Hex } from './keccak'

/**
 * A viem {@link PrivateKeyAccount} that signs with libsecp256k1 (the `secp256k1` package's
 * native binding, prebuilt for linux-x64) instead of viem's pure-JS noble-curves: digests
 * (`sign`), messages, typed data and transactions, each hashed exactly as viem's own account
 * hashes it (hashMessage, the serializer and keccak256, by WebAssembly for a transaction's
 * kilobytes: lib/keccak.ts; typed data by lib/hashTypedData.ts, to
 * viem's very digest with the type hashes computed once), only the signature of the digest is
 * native.
 *
 * Both sign with RFC 6979 deterministic nonces and low-s, so every signature is the very one
 * viem makes (nativeSign.test.ts checks byte equality): a faster path to the same result, ~10×
 * less CPU per signature and none of noble's precomputed tables (~100 ms on first use). It is
 * the cost of a quote's server signature, of every transaction the relayer sends and of every
 * signature the conformance runner makes. An EIP-7702 authorization is signed the same way over
 * viem's hashAuthorization, returned as viem's signAuthorization returns it (the signed fields,
 * then the signature object): the conformance runner's 7702 scenarios no longer build noble's
 * tables (~125 ms of its CPU) for one signature.
 */
export function nativeSigningAccount(privateKey: Hex): PrivateKeyAccount {
  const key = Buffer.from(privateKey.slice(2), 'hex')
  // What viem's privateKeyToAccount builds, but with the public key from libsecp256k1.
  const publicKey: Hex = `0x${publicKeyOf(key).toString('hex')}`
  const account = toAccount({
    address: publicKeyToAddress(publicKey),
    sign: async ({ hash }) => signHash(hash, key),
    signAuthorization: async (authorization) => {
      const address = authorization.contractAddress ?? authorization.address
      const { chainId, nonce } = authorization
      return { address, chainId, nonce, ...signatureOf(hashAuthorization({ address, chainId, nonce }), key) }
    },
    signMessage: async ({ message }) => signHash(hashMessage(message), key),
    // As viem's signTransaction: an EIP-4844 transaction is signed without its sidecars.
    signTransaction: async (transaction, { serializer = serializeTransaction } = {}) => {
      const serialize = serializer as SerializeTransactionFn<TransactionSerializable>
      const signable =
        transaction.type === 'eip4844' ? { ...transaction, sidecars: false as const } : transaction
      const signature = signatureOf(keccak256Hex(await serialize(signable)), key)
      return (await serialize(transaction, signature)) as Hex
    },
    signTypedData: async (typedData) => signHash(hashTypedData(typedData as AnyTypedDataDefinition), key),
  })
  return { ...account, publicKey, source: 'privateKey' } as PrivateKeyAccount
}

/** The address of a private key, its public key by libsecp256k1 (see {@link nativeSigningAccount}). */
export function addressOf(privateKey: Hex) {
  return publicKeyToAddress(`0x${publicKeyOf(Buffer.from(privateKey.slice(2), 'hex')).toString('hex')}`)
}

/** viem's signature object (`{r, s, v, yParity}`, as viem's `sign` returns it) of a digest, by libsecp256k1. */
function signatureOf(hash: Hex, privateKey: Uint8Array) {
  const { signature, recid } = secp256k1.ecdsaSign(Buffer.from(hash.slice(2), 'hex'), privateKey)
  const hex = Buffer.from(signature).toString('hex')
  return {
    r: `0x${hex.slice(0, 64)}` as Hex,
    s: `0x${hex.slice(64)}` as Hex,
    v: recid ? 28n : 27n,
    yParity: recid,
  }
}

/**
 * The secp256k1 public key of a private key, by libsecp256k1: 65 bytes (`04 ‖ x ‖ y`), or 33
 * compressed. ~50× less CPU than Node's `createECDH('secp256k1').setPrivateKey` (OpenSSL), which
 * the devnet's key derivation paid ~30 times at each start (issue 18).
 */
export function publicKeyOf(privateKey: Uint8Array, compressed = false): Buffer {
  return Buffer.from(secp256k1.publicKeyCreate(privateKey, compressed))
}

/** Signs a 32-byte digest with libsecp256k1: `r ‖ s ‖ v` (v = 27 + recovery id), as viem's `sign` serializes it. */
export function signHash(hash: Hex, privateKey: Uint8Array): Hex {
  const { signature, recid } = secp256k1.ecdsaSign(Buffer.from(hash.slice(2), 'hex'), privateKey)
  return `0x${Buffer.from(signature).toString('hex')}${recid === 0 ? '1b' : '1c'}`
}

/**
 * viem's `recoverAddress` with libsecp256k1 for a 65-byte signature (`r ‖ s ‖ v`, v 27/28 or
 * 0/1): the address that signed `hash`, or a rejection when the signature recovers none. Any
 * other form (a 64-byte EIP-2098 signature, another v) goes to viem's own. Same results as viem
 * (nativeSign.test.ts, random and damaged signatures): it is the settlement's and the server
 * signature's check of every submitted intent, ~20× less CPU than noble's recovery.
 */
export async function recoverSigner({ hash, signature }: { hash: Hex; signature: Hex }): Promise<Address> {
  const v = signature.length === 132 ? Number.parseInt(signature.slice(130), 16) : Number.NaN
  const recid = v === 27 || v === 0 ? 0 : v === 28 || v === 1 ? 1 : undefined
  if (recid === undefined || !/^0x[0-9a-fA-F]{64}$/.test(hash)) return recoverAddress({ hash, signature })
  const publicKey = secp256k1.ecdsaRecover(
    Buffer.from(signature.slice(2, 130), 'hex'),
    recid,
    Buffer.from(hash.slice(2), 'hex'),
    false,
  )
  return addressOfPublicKey(publicKey)
}

/**
 * viem's `publicKeyToAddress` of an uncompressed public key (0x04 ‖ x ‖ y): the last 20 bytes of
 * the keccak256 of x ‖ y, checksummed as EIP-55 says (a digit upper-cased where the keccak256 of
 * the lower-case hex has a digit of 8 or more), both hashes by WebAssembly: viem's pure-JS
 * keccak256 twice was ~0.1 ms per recovered signature in the simulator child of a conformance
 * run (~10 ms of its CPU per all-packs run). nativeSign.test.ts compares recoverSigner with
 * viem's recoverAddress.
 */
function addressOfPublicKey(publicKey: Uint8Array): Address {
  const lower = keccak256Bytes(publicKey.subarray(1)).slice(26)
  const digest = keccak256Bytes(Buffer.from(lower, 'latin1'))
  let address = '0x'
  for (let i = 0; i < 40; i++)
    address += Number.parseInt(digest[2 + i]!, 16) >= 8 ? lower[i]!.toUpperCase() : lower[i]!
  return address as Address
}
