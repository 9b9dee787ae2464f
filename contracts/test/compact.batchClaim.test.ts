import { type Hex, hashStruct, keccak256, toHex, zeroAddress } from 'viem'
import { describe, expect, test } from 'vitest'
import { TestERC1271Wallet } from '../generated/artifacts'
import { anvilAccounts, claimantOf, lockIdOf, lockTagOf, placeContract, send } from './helpers'
import {
  abi,
  allocatorKey,
  type BatchArgs,
  batchCompactTypes,
  compact,
  domain,
  expectRevert,
  mandate,
  mandateTypes,
  recipient,
  useCompactChain,
  witnessTypestring,
} from './support/compactFixture'

// The Compact v1: batchClaim (signatures, nonces, registration, one allocator a batch, ERC-1271 sponsors).
const wallet1271 = '0x0000000000000000000000000000000000127100' as const
const fx = useCompactChain()

describe('batchClaim', () => {
  test('pays the claimants when the sponsor (viem signTypedData) and allocator signed; no replay', async () => {
    const args: BatchArgs = {
      nonce: 10n,
      expires: (await fx.now()) + 600n,
      amounts: [10n ** 18n, 100_000_000n],
    }
    const signed = await fx.signBatch(args)
    const before = await fx.chain.client.getBalance({ address: recipient })
    const payload = fx.batchPayload(signed, args, [10n ** 18n, 60_000_000n])
    const claimHash = await fx.arbiter.simulateContract({
      address: compact,
      abi,
      functionName: 'batchClaim',
      args: [payload],
    })
    expect(claimHash.result).toBe(
      hashStruct({ types: batchCompactTypes, primaryType: 'BatchCompact', data: signed.message }),
    )
    await send(fx.arbiter, fx.arbiter.writeContract(claimHash.request))
    expect((await fx.chain.client.getBalance({ address: recipient })) - before).toBe(10n ** 18n)
    expect(await fx.balance(recipient, fx.usdcId)).toBe(60_000_000n)
    expect(await fx.balance(fx.sponsor.account.address, fx.usdcId)).toBe(440_000_000n)
    await expectRevert(
      fx.arbiter.writeContract({ address: compact, abi, functionName: 'batchClaim', args: [payload] }),
      'InvalidNonce',
    )
  })

  test('reverts for a wrong arbiter, a bad signature, expiry, over-claim and bad allocator data', async () => {
    const args: BatchArgs = { nonce: 11n, expires: (await fx.now()) + 600n, amounts: [1n, 2n] }
    const signed = await fx.signBatch(args)
    const payload = fx.batchPayload(signed, args)
    // The arbiter is msg.sender: anyone else computes another claim hash.
    await expectRevert(
      fx.stranger.writeContract({ address: compact, abi, functionName: 'batchClaim', args: [payload] }),
      'InvalidSignature',
    )
    const forged = await fx.signBatch({ ...args, signer: fx.stranger })
    await expectRevert(
      fx.arbiter.writeContract({
        address: compact,
        abi,
        functionName: 'batchClaim',
        args: [fx.batchPayload(forged, args)],
      }),
      'InvalidSignature',
    )
    await expectRevert(
      fx.arbiter.writeContract({
        address: compact,
        abi,
        functionName: 'batchClaim',
        args: [fx.batchPayload(signed, args, [1n, 3n])],
      }),
      'AllocatedAmountExceeded',
    )
    await expectRevert(
      fx.arbiter.writeContract({
        address: compact,
        abi,
        functionName: 'batchClaim',
        args: [{ ...payload, allocatorData: forged.sponsorSignature }],
      }),
      'InvalidAllocatorSignature',
    )
    const expiredArgs: BatchArgs = { nonce: 12n, expires: (await fx.now()) - 1n, amounts: [1n, 2n] }
    await expectRevert(
      fx.arbiter.writeContract({
        address: compact,
        abi,
        functionName: 'batchClaim',
        args: [fx.batchPayload(await fx.signBatch(expiredArgs), expiredArgs)],
      }),
      'Expired',
    )
    // More than the sponsor holds.
    const bigArgs: BatchArgs = { nonce: 13n, expires: (await fx.now()) + 600n, amounts: [10n ** 20n, 2n] }
    await expectRevert(
      fx.arbiter.writeContract({
        address: compact,
        abi,
        functionName: 'batchClaim',
        args: [fx.batchPayload(await fx.signBatch(bigArgs), bigArgs)],
      }),
      'InsufficientBalance',
    )
  })

  test('a registered compact needs no sponsor signature', async () => {
    const args: BatchArgs = { nonce: 14n, expires: (await fx.now()) + 600n, amounts: [1n, 2n] }
    const signed = await fx.signBatch(args)
    const payload = { ...fx.batchPayload(signed, args), sponsorSignature: '0x' as Hex }
    await expectRevert(
      fx.arbiter.writeContract({ address: compact, abi, functionName: 'batchClaim', args: [payload] }),
      'InvalidSignature',
    )
    const claimHash = hashStruct({
      types: batchCompactTypes,
      primaryType: 'BatchCompact',
      data: signed.message,
    })
    // The typehash of the witness form: `,Mandate mandate)` ends BatchCompact, Mandate follows Lock.
    const batchTypehash = keccak256(
      toHex(
        'BatchCompact(address arbiter,address sponsor,uint256 nonce,uint256 expires,Lock[] commitments,Mandate mandate)Lock(bytes12 lockTag,address token,uint256 amount)Mandate(address recipient,uint256 fillDeadline,Token[] tokenOut)Token(address token,uint256 amount)',
      ),
    )
    await send(
      fx.sponsor,
      fx.sponsor.writeContract({
        address: compact,
        abi,
        functionName: 'register',
        args: [claimHash, batchTypehash],
      }),
    )
    await send(
      fx.arbiter,
      fx.arbiter.writeContract({ address: compact, abi, functionName: 'batchClaim', args: [payload] }),
    )
    expect(await fx.balance(recipient, fx.usdcId)).toBe(2n)
  })

  test('every id of a batch must share one allocator', async () => {
    // An EOA registers itself as a second allocator; a batch mixing both allocators is refused.
    const other = fx.chain.wallets[5]!
    await send(
      other,
      other.writeContract({
        address: compact,
        abi,
        functionName: '__registerAllocator',
        args: [other.account.address, '0x'],
      }),
    )
    const otherId = await fx.chain.client.readContract({
      address: compact,
      abi,
      functionName: 'toAllocatorId',
      args: [other.account.address],
    })
    const otherTag = lockTagOf(otherId, 0, 2)
    await send(
      fx.sponsor,
      fx.sponsor.writeContract({
        address: compact,
        abi,
        functionName: 'depositNative',
        args: [otherTag, zeroAddress],
        value: 5n,
      }),
    )
    const args: BatchArgs = { nonce: 15n, expires: (await fx.now()) + 600n, amounts: [1n, 2n] }
    const payload = fx.batchPayload(await fx.signBatch(args), args)
    const mixed = {
      ...payload,
      claims: [{ ...payload.claims[0], id: lockIdOf(otherTag, zeroAddress) }, payload.claims[1]],
    }
    await expectRevert(
      fx.arbiter.writeContract({ address: compact, abi, functionName: 'batchClaim', args: [mixed] }),
      'InconsistentAllocators',
    )
    // The other allocator burns a nonce directly.
    await send(other, other.writeContract({ address: compact, abi, functionName: 'consume', args: [[77n]] }))
    expect(
      await fx.chain.client.readContract({
        address: compact,
        abi,
        functionName: 'hasConsumedAllocatorNonce',
        args: [77n, other.account.address],
      }),
    ).toBe(true)
    await expectRevert(
      fx.stranger.writeContract({ address: compact, abi, functionName: 'consume', args: [[1n]] }),
      'UnregisteredAllocator',
    )
  })

  test('an ERC-1271 contract sponsor signs through its owner', async () => {
    const owner = anvilAccounts[6]!
    await placeContract(fx.chain.client, wallet1271, TestERC1271Wallet)
    await send(
      fx.deployer,
      fx.deployer.writeContract({
        address: wallet1271,
        abi: TestERC1271Wallet.abi,
        functionName: 'initialize',
        args: [owner.address],
      }),
    )
    await send(
      fx.deployer,
      fx.deployer.writeContract({
        address: compact,
        abi,
        functionName: 'depositNative',
        args: [fx.tag, wallet1271],
        value: 100n,
      }),
    )
    const expires = (await fx.now()) + 600n
    const m = mandate(0n)
    const message = {
      arbiter: fx.arbiter.account.address,
      sponsor: wallet1271,
      nonce: 16n,
      expires,
      commitments: [{ lockTag: fx.tag, token: zeroAddress, amount: 100n }],
      mandate: m,
    }
    const typed = {
      domain: domain(fx.chain.chain.id),
      types: batchCompactTypes,
      primaryType: 'BatchCompact',
      message,
    } as const
    const payload = (sponsorSignature: Hex) => ({
      allocatorData: '0x' as Hex,
      sponsorSignature,
      sponsor: wallet1271,
      nonce: 16n,
      expires,
      witness: hashStruct({ types: mandateTypes, primaryType: 'Mandate', data: m }),
      witnessTypestring,
      claims: [
        {
          id: fx.nativeId,
          allocatedAmount: 100n,
          portions: [{ claimant: claimantOf(fx.tag, recipient), amount: 100n }],
        },
      ],
    })
    const allocatorData = await allocatorKey.signTypedData(typed)
    const bad = await anvilAccounts[7]!.signTypedData(typed)
    await expectRevert(
      fx.arbiter.writeContract({
        address: compact,
        abi,
        functionName: 'batchClaim',
        args: [{ ...payload(bad), allocatorData }],
      }),
      'InvalidSignature',
    )
    const good = await owner.signTypedData(typed)
    await send(
      fx.arbiter,
      fx.arbiter.writeContract({
        address: compact,
        abi,
        functionName: 'batchClaim',
        args: [{ ...payload(good), allocatorData }],
      }),
    )
    expect(await fx.balance(recipient, fx.nativeId)).toBe(100n)
  })
})
