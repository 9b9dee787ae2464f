import { randomBytes } from 'node:crypto'
import { bytesToHex, recoverAddress } from 'viem'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { describe, expect, it } from 'vitest'
import { addressOf, nativeSigningAccount, recoverSigner } from './nativeSign'

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

  it('signs messages, typed data and every transaction type to the bytes viem signs, for many keys', async () => {
    for (let i = 0; i < 20; i++) {
      const key = generatePrivateKey()
      const native = nativeSigningAccount(key)
      const viem = privateKeyToAccount(key)
      expect(addressOf(key)).toBe(viem.address)
      const raw = bytesToHex(randomBytes(1 + i * 7))
      for (const message of [`message ${i}`, { raw }, { raw: Buffer.from(raw.slice(2), 'hex') }])
        expect(await native.signMessage({ message })).toBe(await viem.signMessage({ message }))
      const typedData = {
        domain: { name: 'The Compact', version: '1', chainId: 8453, verifyingContract: viem.address },
        types: {
          Mandate: [
            { name: 'recipient', type: 'address' },
            { name: 'amounts', type: 'uint256[]' },
            { name: 'nested', type: 'Inner' },
          ],
          Inner: [
            { name: 'data', type: 'bytes' },
            { name: 'salt', type: 'bytes32' },
          ],
        },
        primaryType: 'Mandate',
        message: {
          recipient: viem.address,
          amounts: [BigInt(i), 2n ** 200n],
          nested: { data: raw, salt: bytesToHex(randomBytes(32)) },
        },
      } as const
      expect(await native.signTypedData(typedData)).toBe(await viem.signTypedData(typedData))
      const base = {
        chainId: 10,
        to: viem.address,
        value: BigInt(i),
        gas: 50_000n,
        nonce: i,
        data: raw,
      } as const
      const transactions = [
        { ...base, gasPrice: 7n, type: 'legacy' },
        { ...base, gasPrice: 7n, type: 'eip2930', accessList: [{ address: viem.address, storageKeys: [] }] },
        { ...base, maxFeePerGas: 9n, maxPriorityFeePerGas: 1n, type: 'eip1559' },
      ] as const
      for (const transaction of transactions)
        expect(await native.signTransaction(transaction)).toBe(await viem.signTransaction(transaction))
    }
  })

  it("signs EIP-7702 authorizations to the very object viem's account signs, for many keys", async () => {
    for (let i = 0; i < 20; i++) {
      const key = generatePrivateKey()
      const native = nativeSigningAccount(key)
      const viem = privateKeyToAccount(key)
      const contractAddress = privateKeyToAccount(generatePrivateKey()).address
      for (const request of [
        { contractAddress, chainId: 0, nonce: i },
        { address: contractAddress, chainId: 8453, nonce: 0 },
      ]) {
        const signed = await native.signAuthorization!(request)
        expect(signed).toEqual(await viem.signAuthorization(request))
        expect(signed.yParity === 0 || signed.yParity === 1).toBe(true)
      }
    }
  })

  it("recovers the signer as viem's recoverAddress does: valid, damaged and odd signatures alike", async () => {
    const outcome = (promise: Promise<string>) =>
      promise.then(
        (address) => address,
        () => 'rejected',
      )
    for (let i = 0; i < 60; i++) {
      const key = generatePrivateKey()
      const hash = bytesToHex(randomBytes(32))
      const signature = await nativeSigningAccount(key).sign({ hash })
      const damaged =
        `${signature.slice(0, 10)}${(Number.parseInt(signature[10]!, 16) ^ 1).toString(16)}${signature.slice(11)}` as const
      const candidates = [
        signature,
        damaged,
        // v as 0/1, an invalid v, r or s out of range, random bytes, and the 64-byte EIP-2098 form
        `${signature.slice(0, 130)}${signature.endsWith('1b') ? '00' : '01'}`,
        `${signature.slice(0, 130)}05`,
        `0x${'ff'.repeat(32)}${signature.slice(66)}`,
        `0x${'00'.repeat(64)}1b`,
        bytesToHex(randomBytes(65)),
        signature.slice(0, 130),
      ] as `0x${string}`[]
      for (const candidate of candidates)
        expect(await outcome(recoverSigner({ hash, signature: candidate })), candidate).toBe(
          await outcome(recoverAddress({ hash, signature: candidate })),
        )
      expect(await recoverSigner({ hash, signature })).toBe(privateKeyToAccount(key).address)
    }
  })
})
