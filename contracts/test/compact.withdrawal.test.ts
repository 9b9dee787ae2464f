import { encodeFunctionData, zeroAddress } from 'viem'
import { describe, expect, test } from 'vitest'
import { ReentrantToken } from '../generated/artifacts'
import { lockIdOf, placeContract, send } from './helpers'
import { abi, compact, expectRevert, recipient, usdc, useCompactChain } from './support/compactFixture'

// The Compact v1: forced withdrawal after the reset period, and the reentrancy guard.
const badToken = '0x00000000000000000000000000000000bad70ce1' as const
const fx = useCompactChain()

describe('forced withdrawal', () => {
  test('only after the reset period; disable stops it', async () => {
    await expectRevert(
      fx.sponsor.writeContract({
        address: compact,
        abi,
        functionName: 'forcedWithdrawal',
        args: [fx.usdcId, recipient, 5n],
      }),
      'PrematureWithdrawal',
    )
    await send(
      fx.sponsor,
      fx.sponsor.writeContract({
        address: compact,
        abi,
        functionName: 'enableForcedWithdrawal',
        args: [fx.usdcId],
      }),
    )
    await expectRevert(
      fx.sponsor.writeContract({
        address: compact,
        abi,
        functionName: 'forcedWithdrawal',
        args: [fx.usdcId, recipient, 5n],
      }),
      'PrematureWithdrawal',
    )
    await fx.chain.client.increaseTime({ seconds: 61 })
    await fx.chain.client.mine({ blocks: 1 })
    await send(
      fx.sponsor,
      fx.sponsor.writeContract({
        address: compact,
        abi,
        functionName: 'forcedWithdrawal',
        args: [fx.usdcId, recipient, 5n],
      }),
    )
    expect(await fx.tokenBalance(usdc, recipient)).toBe(5n)
    await send(
      fx.sponsor,
      fx.sponsor.writeContract({
        address: compact,
        abi,
        functionName: 'disableForcedWithdrawal',
        args: [fx.usdcId],
      }),
    )
    await expectRevert(
      fx.sponsor.writeContract({
        address: compact,
        abi,
        functionName: 'forcedWithdrawal',
        args: [fx.usdcId, recipient, 5n],
      }),
      'PrematureWithdrawal',
    )
  })
})

describe('reentrancy', () => {
  test('a token calling back into the Compact during a deposit is refused', async () => {
    await placeContract(fx.chain.client, badToken, ReentrantToken)
    const bad = { address: badToken, abi: ReentrantToken.abi } as const
    await send(
      fx.sponsor,
      fx.sponsor.writeContract({ ...bad, functionName: 'mint', args: [fx.sponsor.account.address, 1000n] }),
    )
    await send(
      fx.sponsor,
      fx.sponsor.writeContract({ ...bad, functionName: 'approve', args: [compact, 1000n] }),
    )
    // During the deposit's transferFrom, the token calls a guarded Compact function.
    const guarded = encodeFunctionData({
      abi,
      functionName: 'forcedWithdrawal',
      args: [fx.usdcId, badToken, 1n],
    })
    await send(
      fx.sponsor,
      fx.sponsor.writeContract({ ...bad, functionName: 'arm', args: [compact, guarded] }),
    )
    await expectRevert(
      fx.sponsor.writeContract({
        address: compact,
        abi,
        functionName: 'depositERC20',
        args: [badToken, fx.tag, 100n, zeroAddress],
      }),
      'Reentrancy',
    )
    // Disarmed, the same deposit works.
    await send(
      fx.sponsor,
      fx.sponsor.writeContract({ ...bad, functionName: 'arm', args: [zeroAddress, '0x'] }),
    )
    await send(
      fx.sponsor,
      fx.sponsor.writeContract({
        address: compact,
        abi,
        functionName: 'depositERC20',
        args: [badToken, fx.tag, 100n, zeroAddress],
      }),
    )
    expect(await fx.balance(fx.sponsor.account.address, lockIdOf(fx.tag, badToken))).toBe(100n)
  })
})
