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
  })
})
