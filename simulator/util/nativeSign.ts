import secp256k1 from 'secp256k1'
import type { Hex } from 'viem'
import {
  type PrivateKeyAccount,
  publicKeyToAddress,
  signAuthorization,
  signMessage,
  signTransaction,
  signTypedData,
  toAccount,
} from 'viem/accounts'

/**
 * A viem {@link PrivateKeyAccount} whose `sign({ hash })` runs libsecp256k1 (the `secp256k1`
 * package's native binding, prebuilt for linux-x64) instead of viem's pure-JS noble-curves.
 *
 * Both sign with RFC 6979 deterministic nonces and low-s, so the 65-byte signature is the very
 * one viem makes (nativeSign.test.ts checks byte equality): this is a faster path to the same
 * result, ~10× less CPU per signature, which is most of the cost of a quote's server signature.
 * Every other method (signMessage, signTypedData, signTransaction, signAuthorization) is viem's.
 */
export function nativeSigningAccount(privateKey: Hex): PrivateKeyAccount {
  const key = Buffer.from(privateKey.slice(2), 'hex')
  // What viem's privateKeyToAccount builds, but with the public key from libsecp256k1: viem's
  // (noble-curves) costs ~100 ms of precomputed tables on its first use, on the way to a
  // devnet's first answer (issue 18). The other methods are viem's, as there.
  const publicKey: Hex = `0x${Buffer.from(secp256k1.publicKeyCreate(key, false)).toString('hex')}`
  const account = toAccount({
    address: publicKeyToAddress(publicKey),
    sign: async ({ hash }) => signHash(hash, key),
    signAuthorization: async (authorization) => signAuthorization({ ...authorization, privateKey }),
    signMessage: async ({ message }) => signMessage({ message, privateKey }),
    signTransaction: async (transaction, { serializer } = {}) =>
      signTransaction({ privateKey, transaction, serializer }),
    signTypedData: async (typedData) =>
      signTypedData({ ...typedData, privateKey } as Parameters<typeof signTypedData>[0]),
  })
  return { ...account, publicKey, source: 'privateKey' } as PrivateKeyAccount
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
