import { type Address, type Hex, zeroAddress } from 'viem'
import { describe, expect, test } from 'vitest'
import { addresses } from '../addresses'
import { anvilAccounts, claimantOf, lockIdOf, lockTagOf, send } from './helpers'
import {
  abi,
  allocatorKey,
  compact,
  domain,
  expectRevert,
  recipient,
  usdc,
  useCompactChain,
} from './support/compactFixture'

// The Compact v1: lock ids, deposits and ERC-6909 transfers, and allocatedTransfer.
const fx = useCompactChain()

describe('lock ids', () => {
  test('allocator id, lock tag and id are laid out as The Compact v1 does', async () => {
    // 32 leading zero nibbles: compact flag 15.
    expect(fx.allocatorId).toBe((15n << 88n) | (BigInt(addresses.allocator) & ((1n << 88n) - 1n)))
    expect(fx.nativeId >> 248n).not.toBe(0n)
    const details = await fx.chain.client.readContract({
      address: compact,
      abi,
      functionName: 'getLockDetails',
      args: [lockIdOf(fx.chainTag, usdc)],
    })
    expect(details).toEqual([usdc, addresses.allocator, 2, 1, fx.chainTag])
    expect(await fx.chain.client.readContract({ address: compact, abi, functionName: 'name' })).toBe(
      'The Compact',
    )
  })

  test('compact flag follows the leading zero nibbles', async () => {
    const id = (a: Address) =>
      fx.chain.client.readContract({ address: compact, abi, functionName: 'toAllocatorId', args: [a] })
    expect((await id('0x1000000000000000000000000000000000000001')) >> 88n).toBe(0n)
    expect((await id('0x0000100000000000000000000000000000000001')) >> 88n).toBe(1n)
    expect((await id('0x0000000000000000010000000000000000000001')) >> 88n).toBe(14n)
    expect((await id('0x0000000000000000001000000000000000000001')) >> 88n).toBe(15n)
  })

  test('a lock tag of an unregistered allocator cannot be deposited', async () => {
    const other = lockTagOf(12345n, 0, 0)
    await expectRevert(
      fx.sponsor.writeContract({
        address: compact,
        abi,
        functionName: 'depositNative',
        args: [other, zeroAddress],
        value: 1n,
      }),
      'UnregisteredAllocator',
    )
  })
})

describe('deposits and ERC-6909', () => {
  test('depositNative, depositERC20 and batchDeposit credit the recipient', async () => {
    expect(await fx.balance(fx.sponsor.account.address, fx.nativeId)).toBe(10n ** 19n)
    expect(await fx.balance(fx.sponsor.account.address, fx.usdcId)).toBe(500_000_000n)
    const chainUsdc = lockIdOf(fx.chainTag, usdc)
    await send(
      fx.sponsor,
      fx.sponsor.writeContract({
        address: compact,
        abi,
        functionName: 'batchDeposit',
        args: [
          [
            [lockIdOf(fx.chainTag, zeroAddress), 5n],
            [chainUsdc, 7n],
          ],
          recipient,
        ],
        value: 5n,
      }),
    )
    expect(await fx.balance(recipient, lockIdOf(fx.chainTag, zeroAddress))).toBe(5n)
    expect(await fx.balance(recipient, chainUsdc)).toBe(7n)
    await expectRevert(
      fx.sponsor.writeContract({
        address: compact,
        abi,
        functionName: 'batchDeposit',
        args: [[[fx.nativeId, 5n]], recipient],
        value: 4n,
      }),
      'InconsistentNativeValue',
    )
  })

  test('transfer, transferFrom with allowance and operator; over-transfer reverts', async () => {
    await send(
      fx.sponsor,
      fx.sponsor.writeContract({
        address: compact,
        abi,
        functionName: 'transfer',
        args: [recipient, fx.usdcId, 10n],
      }),
    )
    expect(await fx.balance(recipient, fx.usdcId)).toBe(10n)
    await expectRevert(
      fx.stranger.writeContract({
        address: compact,
        abi,
        functionName: 'transferFrom',
        args: [fx.sponsor.account.address, recipient, fx.usdcId, 1n],
      }),
      'InsufficientAllowance',
    )
    await send(
      fx.sponsor,
      fx.sponsor.writeContract({
        address: compact,
        abi,
        functionName: 'approve',
        args: [fx.stranger.account.address, fx.usdcId, 3n],
      }),
    )
    await send(
      fx.stranger,
      fx.stranger.writeContract({
        address: compact,
        abi,
        functionName: 'transferFrom',
        args: [fx.sponsor.account.address, recipient, fx.usdcId, 3n],
      }),
    )
    expect(
      await fx.chain.client.readContract({
        address: compact,
        abi,
        functionName: 'allowance',
        args: [fx.sponsor.account.address, fx.stranger.account.address, fx.usdcId],
      }),
    ).toBe(0n)
    await send(
      fx.sponsor,
      fx.sponsor.writeContract({
        address: compact,
        abi,
        functionName: 'setOperator',
        args: [fx.stranger.account.address, true],
      }),
    )
    await send(
      fx.stranger,
      fx.stranger.writeContract({
        address: compact,
        abi,
        functionName: 'transferFrom',
        args: [fx.sponsor.account.address, recipient, fx.usdcId, 100n],
      }),
    )
    expect(await fx.balance(recipient, fx.usdcId)).toBe(113n)
    await expectRevert(
      fx.sponsor.writeContract({
        address: compact,
        abi,
        functionName: 'transfer',
        args: [recipient, fx.usdcId, 10n ** 12n],
      }),
      'InsufficientBalance',
    )
  })
})

describe('allocatedTransfer', () => {
  async function signTransfer(nonce: bigint, expires: bigint, amount: bigint, key = allocatorKey) {
    // The claim hash is the Compact struct with arbiter = sponsor = caller and the summed amount.
    const message = {
      arbiter: fx.sponsor.account.address,
      sponsor: fx.sponsor.account.address,
      nonce,
      expires,
      lockTag: fx.tag,
      token: usdc,
      amount,
    }
    return key.signTypedData({
      domain: domain(fx.chain.chain.id),
      types: {
        Compact: [
          { name: 'arbiter', type: 'address' },
          { name: 'sponsor', type: 'address' },
          { name: 'nonce', type: 'uint256' },
          { name: 'expires', type: 'uint256' },
          { name: 'lockTag', type: 'bytes12' },
          { name: 'token', type: 'address' },
          { name: 'amount', type: 'uint256' },
        ],
      },
      primaryType: 'Compact',
      message,
    })
  }
  const transfer = (allocatorData: Hex, nonce: bigint, expires: bigint, moved: bigint, withdrawn: bigint) =>
    fx.sponsor.writeContract({
      address: compact,
      abi,
      functionName: 'allocatedTransfer',
      args: [
        {
          allocatorData,
          nonce,
          expires,
          id: fx.usdcId,
          recipients: [
            { claimant: claimantOf(fx.tag, recipient), amount: moved },
            { claimant: claimantOf('0x0', recipient), amount: withdrawn },
          ],
        },
      ],
    })

  test('moves the lock and withdraws the token as the allocator signed; the nonce is single-use', async () => {
    const expires = (await fx.now()) + 600n
    const data = await signTransfer(1n, expires, 30n)
    await send(fx.sponsor, transfer(data, 1n, expires, 10n, 20n))
    expect(await fx.balance(recipient, fx.usdcId)).toBe(10n)
    expect(await fx.tokenBalance(usdc, recipient)).toBe(20n)
    expect(
      await fx.chain.client.readContract({
        address: compact,
        abi,
        functionName: 'hasConsumedAllocatorNonce',
        args: [1n, addresses.allocator],
      }),
    ).toBe(true)
    await expectRevert(transfer(data, 1n, expires, 10n, 20n), 'InvalidNonce')
  })

  test('reverts on a bad allocator signature, an expired transfer and an over-transfer', async () => {
    const expires = (await fx.now()) + 600n
    await expectRevert(
      transfer(await signTransfer(2n, expires, 30n, anvilAccounts[9]!), 2n, expires, 10n, 20n),
      'InvalidAllocatorSignature',
    )
    await expectRevert(
      transfer(await signTransfer(2n, expires, 31n), 2n, expires, 10n, 20n),
      'InvalidAllocatorSignature',
    )
    const past = (await fx.now()) - 1n
    await expectRevert(transfer(await signTransfer(2n, past, 30n), 2n, past, 10n, 20n), 'Expired')
    const huge = 10n ** 12n
    await expectRevert(
      transfer(await signTransfer(3n, expires, huge + 1n), 3n, expires, huge, 1n),
      'InsufficientBalance',
    )
  })
})
