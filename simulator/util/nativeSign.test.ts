import { randomBytes } from 'node:crypto'
import { bytesToHex, recoverAddress } from 'viem'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { describe, expect, it } from 'vitest'
import { nativeSigningAccount } from './nativeSign'

describe('nativeSigningAccount', () => {
  it("signs a digest to the very bytes viem's account signs, for many keys and digests", async () => {
    for (let i = 0; i < 50; i++) {
      const key = generatePrivateKey()
      const hash = bytesToHex(randomBytes(32))
      const native = nativeSigningAccount(key)
      const viem = privateKeyToAccount(key)
      expect(native.address).toBe(viem.address)
      const signature = await native.sign({ hash })
      expect(signature).toBe(await viem.sign({ hash }))
      expect(await recoverAddress({ hash, signature })).toBe(viem.address)
    }
  })

  it("keeps viem's other signing methods", async () => {
    const key = generatePrivateKey()
    const native = nativeSigningAccount(key)
    expect(await native.signMessage({ message: 'hi' })).toBe(
      await privateKeyToAccount(key).signMessage({ message: 'hi' }),
    )
    // Built without viem's public key computation: the same public key, and every method signs alike.
    const viem = privateKeyToAccount(key)
    expect(native.publicKey).toBe(viem.publicKey)
    expect(native.source).toBe('privateKey')
    const transaction = {
      chainId: 10,
      to: viem.address,
      value: 1n,
      gas: 21_000n,
      maxFeePerGas: 2n,
      maxPriorityFeePerGas: 1n,
      nonce: 3,
    } as const
    expect(await native.signTransaction(transaction)).toBe(await viem.signTransaction(transaction))
    const typedData = {
      domain: { name: 'test', chainId: 10 },
      types: { Greeting: [{ name: 'text', type: 'string' }] },
      primaryType: 'Greeting',
      message: { text: 'hi' },
    } as const
    expect(await native.signTypedData(typedData)).toBe(await viem.signTypedData(typedData))
  })
})
