import {
  type Address,
  concat,
  encodeAbiParameters,
  encodeFunctionData,
  type Hex,
  keccak256,
  parseEther,
  parseSignature,
  serializeSignature,
  toHex,
} from 'viem'
import { privateKeyToAccount, sign } from 'viem/accounts'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { addresses } from '../addresses'
import { OwnableValidator } from '../generated/artifacts'
import { placeContract, startTestChain, type TestChain } from './helpers'

const keys = [1, 2, 3, 4].map((i) => keccak256(toHex(`account.validator key ${i}`)))
const [ownerA, ownerB, ownerC, outsider] = keys.map((key) => privateKeyToAccount(key))
const SECP256K1_N = 0xfffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141n

/** A 65-byte r ‖ s ‖ v signature over the raw hash (v 27/28). */
async function signRaw(key: Hex, hash: Hex): Promise<Hex> {
  return serializeSignature(await sign({ hash, privateKey: key }))
}

describe('OwnableValidator: owners and threshold per account', () => {
  let chain: TestChain
  // An account is whoever calls the validator: an impersonated address plays it here.
  const account: Address = '0x00000000000000000000000000000000000acc01'
  const hash = keccak256(toHex('a digest to sign'))

  async function asAccount(data: Hex) {
    await chain.client.impersonateAccount({ address: account })
    try {
      const tx = await chain.client.sendTransaction({
        account,
        to: addresses.ownableValidator,
        data,
      })
      return await chain.client.waitForTransactionReceipt({ hash: tx })
    } finally {
      await chain.client.stopImpersonatingAccount({ address: account })
    }
  }

  function check(signature: Hex) {
    return chain.client.readContract({
      address: addresses.ownableValidator,
      abi: OwnableValidator.abi,
      functionName: 'checkSignature',
      args: [account, hash, signature],
    })
  }

  beforeAll(async () => {
    chain = await startTestChain()
    await placeContract(chain.client, addresses.ownableValidator, OwnableValidator)
    await chain.client.setBalance({ address: account, value: parseEther('1') })
    const initData = encodeAbiParameters(
      [{ type: 'uint256' }, { type: 'address[]' }],
      [2n, [ownerA!.address, ownerB!.address, ownerC!.address]],
    )
    const receipt = await asAccount(
      encodeFunctionData({ abi: OwnableValidator.abi, functionName: 'onInstall', args: [initData] }),
    )
    expect(receipt.status).toBe('success')
  })

  afterAll(async () => {
    await chain?.stop()
  })

  it('needs threshold-many distinct owners, in any order', async () => {
    const [a, b, c, x] = await Promise.all(keys.map((key) => signRaw(key, hash)))
    expect(await check(concat([a!, b!]))).toBe(true)
    expect(await check(concat([c!, a!]))).toBe(true)
    expect(await check(concat([x!, b!, c!]))).toBe(true)
    expect(await check(a!)).toBe(false)
    expect(await check(concat([a!, a!]))).toBe(false)
    expect(await check(concat([a!, x!]))).toBe(false)
    expect(await check(concat([a!, b!, '0x00']))).toBe(false)
  })

  it('accepts the eth-signed form marked with v + 4, and refuses a malleated s', async () => {
    const signMessage = async (key: Hex) => {
      const { r, s, v } = parseSignature(
        await privateKeyToAccount(key).signMessage({ message: { raw: hash } }),
      )
      return concat([r, s, toHex(Number(v!) + 4)])
    }
    expect(await check(concat([await signMessage(keys[0]!), await signMessage(keys[1]!)]))).toBe(true)
    // The unmarked eth-signed signature is checked against the raw hash, so it fails.
    const plain = await privateKeyToAccount(keys[0]!).signMessage({ message: { raw: hash } })
    expect(await check(concat([plain, await signRaw(keys[1]!, hash)]))).toBe(false)

    const { r, s, yParity } = await sign({ hash, privateKey: keys[0]! })
    const highS = toHex(SECP256K1_N - BigInt(s), { size: 32 })
    const malleated = concat([r, highS, toHex(yParity === 0 ? 28 : 27)])
    expect(await check(concat([malleated, await signRaw(keys[1]!, hash)]))).toBe(false)
  })

  it('reports its owners and threshold and lets the account manage them', async () => {
    const read = async () => ({
      owners: await chain.client.readContract({
        address: addresses.ownableValidator,
        abi: OwnableValidator.abi,
        functionName: 'getOwners',
        args: [account],
      }),
      threshold: await chain.client.readContract({
        address: addresses.ownableValidator,
        abi: OwnableValidator.abi,
        functionName: 'threshold',
        args: [account],
      }),
    })
    expect(await read()).toEqual({
      owners: [ownerC!.address, ownerB!.address, ownerA!.address],
      threshold: 2n,
    })

    const call = (data: Hex) => asAccount(data)
    await call(
      encodeFunctionData({ abi: OwnableValidator.abi, functionName: 'addOwner', args: [outsider!.address] }),
    )
    await call(encodeFunctionData({ abi: OwnableValidator.abi, functionName: 'setThreshold', args: [3n] }))
    // getOwners order: outsider, C, B, A; removing C names its predecessor.
    await call(
      encodeFunctionData({
        abi: OwnableValidator.abi,
        functionName: 'removeOwner',
        args: [outsider!.address, ownerC!.address],
      }),
    )
    expect(await read()).toEqual({
      owners: [outsider!.address, ownerB!.address, ownerA!.address],
      threshold: 3n,
    })
    const [a, b, c, x] = await Promise.all(keys.map((key) => signRaw(key, hash)))
    expect(await check(concat([a!, b!, x!]))).toBe(true)
    expect(await check(concat([a!, b!, c!]))).toBe(false)

    // Threshold above the owner count, or a removal below the threshold, is refused.
    await expect(
      chain.client.simulateContract({
        address: addresses.ownableValidator,
        abi: OwnableValidator.abi,
        functionName: 'setThreshold',
        args: [4n],
        account,
      }),
    ).rejects.toThrow(/InvalidThreshold/)
    await expect(
      chain.client.simulateContract({
        address: addresses.ownableValidator,
        abi: OwnableValidator.abi,
        functionName: 'removeOwner',
        args: ['0x0000000000000000000000000000000000000001', outsider!.address],
        account,
      }),
    ).rejects.toThrow(/InvalidThreshold/)
  })

  it('refuses a second onInstall, and forgets everything on onUninstall', async () => {
    const initData = encodeAbiParameters(
      [{ type: 'uint256' }, { type: 'address[]' }],
      [1n, [ownerA!.address]],
    )
    await expect(
      chain.client.simulateContract({
        address: addresses.ownableValidator,
        abi: OwnableValidator.abi,
        functionName: 'onInstall',
        args: [initData],
        account,
      }),
    ).rejects.toThrow(/ModuleAlreadyInitialized/)
    await asAccount(
      encodeFunctionData({ abi: OwnableValidator.abi, functionName: 'onUninstall', args: ['0x'] }),
    )
    const isInitialized = await chain.client.readContract({
      address: addresses.ownableValidator,
      abi: OwnableValidator.abi,
      functionName: 'isInitialized',
      args: [account],
    })
    expect(isInitialized).toBe(false)
    expect(await check(await signRaw(keys[0]!, hash))).toBe(false)
  })
})
