import secp256k1 from 'secp256k1'
import type { Hex } from 'viem'
import { type PrivateKeyAccount, privateKeyToAccount } from 'viem/accounts'

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
  const account = privateKeyToAccount(privateKey)
  const key = Buffer.from(privateKey.slice(2), 'hex')
  return {
    ...account,
    sign: async ({ hash }) => signHash(hash, key),
  }
}

/** Signs a 32-byte digest with libsecp256k1: `r ‖ s ‖ v` (v = 27 + recovery id), as viem's `sign` serializes it. */
export function signHash(hash: Hex, privateKey: Uint8Array): Hex {
  const { signature, recid } = secp256k1.ecdsaSign(Buffer.from(hash.slice(2), 'hex'), privateKey)
  return `0x${Buffer.from(signature).toString('hex')}${recid === 0 ? '1b' : '1c'}`
}
