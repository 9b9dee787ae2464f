import { type Hex, hashStruct, zeroAddress } from 'viem'
import type { PrivateKeyAccount } from 'viem/accounts'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { COMPACT_TYPES } from '../../spec'
import { addresses } from '../addresses'
import { Allocator } from '../generated/artifacts'
import { anvilAccounts, placeCompact, startTestChain, type TestChain } from './helpers'

let chain: TestChain
const signer = anvilAccounts[3]!
const allocator = { address: addresses.allocator, abi: Allocator.abi } as const
/** The Compact's `Compact` type, as the service signs it (spec/eip712Types.ts). */
const types = COMPACT_TYPES
const compactOf = (nonce: bigint) =>
  ({
    arbiter: zeroAddress,
    sponsor: zeroAddress,
    nonce,
    expires: 2n,
    lockTag: '0x000000000000000000000000',
    token: zeroAddress,
    amount: 1n,
  }) as const
const claimHash = hashStruct({ types, primaryType: 'Compact', data: compactOf(1n) })

/** keccak256(0x1901 ‖ Compact DOMAIN_SEPARATOR ‖ claimHash) is the EIP-712 digest of the compact. */
function allocatorData(nonce: bigint, key: PrivateKeyAccount = signer): Promise<Hex> {
  return key.signTypedData({
    domain: {
      name: 'The Compact',
      version: '1',
      chainId: chain.chain.id,
      verifyingContract: addresses.compact,
    },
    types,
    primaryType: 'Compact',
    message: compactOf(nonce),
  })
}

beforeAll(async () => {
  chain = await startTestChain({ chainId: 8453 })
  await placeCompact(chain, signer.address)
})

afterAll(async () => {
  await chain?.stop()
})

describe('Allocator', () => {
  test('initialize sets the signer once', async () => {
    expect(await chain.client.readContract({ ...allocator, functionName: 'signer' })).toBe(signer.address)
    await expect(
      chain.wallets[1]!.writeContract({
        ...allocator,
        functionName: 'initialize',
        args: [chain.wallets[1]!.account.address],
      }),
    ).rejects.toThrow('AlreadyInitialized')
  })

  test('attest returns its selector', async () => {
    const result = await chain.client.readContract({
      ...allocator,
      functionName: 'attest',
      args: [zeroAddress, zeroAddress, zeroAddress, 1n, 1n],
    })
    expect(result).toBe('0x1a808f91')
  })

  test('isClaimAuthorized accepts only the signer over the Compact domain digest', async () => {
    const args = (data: Hex) => [claimHash, zeroAddress, zeroAddress, 1n, 2n, [[1n, 2n]], data] as const
    const good = await allocatorData(1n)
    expect(
      await chain.client.readContract({ ...allocator, functionName: 'isClaimAuthorized', args: args(good) }),
    ).toBe(true)
    const wrongKey = await allocatorData(1n, anvilAccounts[4]!)
    expect(
      await chain.client.readContract({
        ...allocator,
        functionName: 'isClaimAuthorized',
        args: args(wrongKey),
      }),
    ).toBe(false)
    const wrongHash = await allocatorData(2n)
    expect(
      await chain.client.readContract({
        ...allocator,
        functionName: 'isClaimAuthorized',
        args: args(wrongHash),
      }),
    ).toBe(false)
    expect(
      await chain.client.readContract({ ...allocator, functionName: 'isClaimAuthorized', args: args('0x') }),
    ).toBe(false)
  })

  test('authorizeClaim answers 0x7bb023f7 to the Compact only', async () => {
    const args = [claimHash, zeroAddress, zeroAddress, 1n, 2n, [[1n, 2n]], await allocatorData(1n)] as const
    const fromCompact = await chain.client.readContract({
      ...allocator,
      functionName: 'authorizeClaim',
      args,
      account: addresses.compact,
    })
    expect(fromCompact).toBe('0x7bb023f7')
    await expect(
      chain.client.readContract({
        ...allocator,
        functionName: 'authorizeClaim',
        args,
        account: chain.wallets[1]!.account.address,
      }),
    ).rejects.toThrow('OnlyCompact')
    await expect(
      chain.client.readContract({
        ...allocator,
        functionName: 'authorizeClaim',
        args: [
          claimHash,
          zeroAddress,
          zeroAddress,
          1n,
          2n,
          [[1n, 2n]],
          await allocatorData(1n, anvilAccounts[4]!),
        ],
        account: addresses.compact,
      }),
    ).rejects.toThrow('InvalidAllocatorSignature')
  })
})
