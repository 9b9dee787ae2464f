// Own devnet, not the shared one: an in-process relayer (createServices) on it, and 100 accounts funded by the test.
import { encodeFunctionData, erc20Abi, keccak256, toHex } from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { describe, expect, it } from 'vitest'
import type { SignedIntentOp } from '../../spec'
import { ApiError } from '../http/errorCodes'
import { toApiErrorOfDomain } from '../http/errorMapping'
import { toBlancStatus } from '../http/versions/intentStatus'
import {
  approvePermit2,
  balanceOf,
  buildSignedIntent,
  compactBalanceOf,
  fundForPermit2,
  tokenAddress,
} from './testing/buildSignedIntent'
import { usdc, useSettlementDevnet } from './testing/useSettlementDevnet'
import { waitForStatus } from './testing/waitForStatus'

const fx = useSettlementDevnet()
const { submit } = fx

async function expectMined(chainId: number, hash: unknown) {
  const receipt = await fx.devnet
    .chain(chainId)
    .publicClient.getTransactionReceipt({ hash: hash as `0x${string}` })
  expect(receipt.status).toBe('success')
}

async function apiError(promise: Promise<unknown>) {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  )
  // As the HTTP layer answers it: the domain error mapped onto the error-code table.
  const answered = toApiErrorOfDomain(error)
  expect(answered).toBeInstanceOf(ApiError)
  return answered as ApiError
}

describe('settlement (alps, relayer on the devnet)', () => {
  it('settles a Permit2-funded EOA intent: tokens to the recipient, claim to the relayer, every hash mined', async () => {
    const user = fx.devnet.keys.accounts[0]!.account
    const usdc10 = tokenAddress(10, 'USDC')
    const usdc8453 = tokenAddress(8453, 'USDC')
    await approvePermit2(fx.devnet, user, 10, usdc10)
    const before = {
      user10: await balanceOf(fx.devnet, 10, usdc10, user.address),
      relayer10: await balanceOf(fx.devnet, 10, usdc10, fx.devnet.keys.relayer.address),
      user8453: await balanceOf(fx.devnet, 8453, usdc8453, user.address),
    }
    const { signedIntentOp } = await buildSignedIntent({
      signer: { kind: 'EOA', account: user },
      server: fx.devnet.keys.server.account,
      fundingMethod: 'PERMIT2',
      origins: [{ chainId: 10, symbol: 'USDC', amount: usdc(101) }],
      destination: { chainId: 8453, symbol: 'USDC', amount: usdc(100) },
      now: fx.devnet.now(),
    })
    const result = await submit(signedIntentOp)
    expect(result.status).toBe('PENDING')
    const status = await waitForStatus(fx.stack.services.intents, result.id, ['COMPLETED', 'FAILED'])
    expect(status).toMatchObject({ status: 'COMPLETED', destinationChainId: 8453, userAddress: user.address })
    await expectMined(8453, status.fillTransactionHash)
    expect(status.claims).toHaveLength(1)
    await expectMined(10, status.claims[0]!.claimTransactionHash)
    expect(await balanceOf(fx.devnet, 8453, usdc8453, user.address)).toBe(before.user8453 + usdc(100))
    expect(await balanceOf(fx.devnet, 10, usdc10, user.address)).toBe(before.user10 - usdc(101))
    expect(await balanceOf(fx.devnet, 10, usdc10, fx.devnet.keys.relayer.address)).toBe(
      before.relayer10 + usdc(101),
    )

    // The same intent again: a conflict, never a second fill.
    expect((await apiError(submit(signedIntentOp))).code).toBe('CONFLICT')
  })

  it('settles a Compact-funded intent from two origin chains to another recipient', async () => {
    const user = fx.devnet.keys.accounts[1]!.account
    const recipient = privateKeyToAccount(keccak256(toHex('settlement.test recipient'))).address
    const [usdc10, usdc42161, usdc8453] = [
      tokenAddress(10, 'USDC'),
      tokenAddress(42161, 'USDC'),
      tokenAddress(8453, 'USDC'),
    ]
    const lock10 = await compactBalanceOf(fx.devnet, 10, usdc10, user.address)
    const lock42161 = await compactBalanceOf(fx.devnet, 42161, usdc42161, user.address)
    const { signedIntentOp } = await buildSignedIntent({
      signer: { kind: 'EOA', account: user },
      server: fx.devnet.keys.server.account,
      fundingMethod: 'COMPACT',
      origins: [
        { chainId: 10, symbol: 'USDC', amount: usdc(30) },
        { chainId: 42161, symbol: 'USDC', amount: usdc(21) },
      ],
      destination: { chainId: 8453, symbol: 'USDC', amount: usdc(50) },
      recipient,
      now: fx.devnet.now(),
    })
    const result = await submit(signedIntentOp)
    const status = await waitForStatus(fx.stack.services.intents, result.id, ['COMPLETED', 'FAILED'])
    expect(status.status).toBe('COMPLETED')
    expect(status.claims.map((c) => c.chainId).sort()).toEqual([10, 42161])
    for (const claim of status.claims) await expectMined(claim.chainId, claim.claimTransactionHash)
    expect(await balanceOf(fx.devnet, 8453, usdc8453, recipient)).toBe(usdc(50))
    expect(await compactBalanceOf(fx.devnet, 10, usdc10, user.address)).toBe(lock10 - usdc(30))
    expect(await compactBalanceOf(fx.devnet, 42161, usdc42161, user.address)).toBe(lock42161 - usdc(21))

    const found = await fx.stack.services.intents.findIntent(result.id)
    const blanc = found && toBlancStatus(found)
    expect(blanc?.operations.find((o) => o.chain === 8453)?.items).toEqual([
      expect.objectContaining({ type: 'FILL', status: 'COMPLETED', txHash: status.fillTransactionHash }),
    ])
  })

  it('refuses a tampered intent and a foreign signature with a 4xx naming the check, sending nothing', async () => {
    const user = fx.devnet.keys.accounts[2]!.account
    const stranger = privateKeyToAccount(keccak256(toHex('settlement.test stranger')))
    const nonceBefore = await fx.devnet
      .chain(8453)
      .publicClient.getTransactionCount({ address: fx.devnet.keys.relayer.address })
    const build = () =>
      buildSignedIntent({
        signer: { kind: 'EOA', account: user },
        server: fx.devnet.keys.server.account,
        fundingMethod: 'COMPACT',
        origins: [{ chainId: 10, symbol: 'USDC', amount: usdc(5) }],
        destination: { chainId: 8453, symbol: 'USDC', amount: usdc(4) },
        now: fx.devnet.now(),
      })
    const tampered = (await build()).signedIntentOp
    tampered.elements[0]!.mandate.tokenOut[0]![1] = String(usdc(400))
    const refused = await apiError(submit(tampered))
    expect(refused.statusCode).toBe(400)
    expect(refused.shortMessage).toContain('serverSignature')

    const { signedIntentOp } = await build()
    const foreign = await buildSignedIntent({
      signer: { kind: 'EOA', account: stranger },
      server: fx.devnet.keys.server.account,
      fundingMethod: 'COMPACT',
      origins: [{ chainId: 10, symbol: 'USDC', amount: usdc(5) }],
      destination: { chainId: 8453, symbol: 'USDC', amount: usdc(4) },
      now: fx.devnet.now(),
    })
    const badSignature = await apiError(
      submit({ ...signedIntentOp, originSignatures: foreign.signedIntentOp.originSignatures }),
    )
    expect(badSignature.shortMessage).toContain('originSignatures[0]')
    const wrongCount = await apiError(
      submit({ ...signedIntentOp, originSignatures: [] as unknown as [string] }),
    )
    expect(wrongCount.shortMessage).toContain('Expected 1 origin signature')
    expect(
      await fx.devnet
        .chain(8453)
        .publicClient.getTransactionCount({ address: fx.devnet.keys.relayer.address }),
    ).toBe(nonceBefore)
  })

  it('answers a dry run with whether the intent would settle, and why not', async () => {
    const user = fx.devnet.keys.accounts[3]!.account
    const base = {
      signer: { kind: 'EOA' as const, account: user },
      server: fx.devnet.keys.server.account,
      fundingMethod: 'COMPACT' as const,
      destination: { chainId: 8453, symbol: 'USDC', amount: usdc(1) },
      dryRun: true,
    }
    const simulate = (signedIntentOp: SignedIntentOp) =>
      fx.stack.services.intents.simulateOperation(signedIntentOp)
    const ok = await simulate(
      (
        await buildSignedIntent({
          ...base,
          origins: [{ chainId: 10, symbol: 'USDC', amount: usdc(2) }],
          now: fx.devnet.now(),
        })
      ).signedIntentOp,
    )
    expect(ok).toMatchObject({ wouldSettle: true })
    const tooMuch = await simulate(
      (
        await buildSignedIntent({
          ...base,
          origins: [{ chainId: 10, symbol: 'USDC', amount: usdc(1_000_000) }],
          now: fx.devnet.now(),
        })
      ).signedIntentOp,
    )
    expect(tooMuch).toMatchObject({ wouldSettle: false })
    expect(String(tooMuch.reason)).toContain('claim on chain 10')
  })

  it('fails an intent whose destination ops revert, with the decoded reason', async () => {
    const user = fx.devnet.keys.accounts[4]!.account
    const { signedIntentOp } = await buildSignedIntent({
      signer: { kind: 'EOA', account: user },
      server: fx.devnet.keys.server.account,
      fundingMethod: 'COMPACT',
      origins: [{ chainId: 10, symbol: 'USDC', amount: usdc(3) }],
      destination: { chainId: 8453, symbol: 'USDC', amount: usdc(2) },
      // An EOA without code cannot run ops: the executor refuses (AccountHasNoCode).
      destinationOps: [
        {
          to: tokenAddress(8453, 'USDC'),
          data: encodeFunctionData({ abi: erc20Abi, functionName: 'transfer', args: [user.address, 1n] }),
        },
      ],
      now: fx.devnet.now(),
    })
    const result = await submit(signedIntentOp)
    const status = await waitForStatus(fx.stack.services.intents, result.id, ['COMPLETED', 'FAILED'])
    expect(status.status).toBe('FAILED')
    expect(status.failureReason).toMatch(/^fill: DestinationOpsFailed → AccountHasNoCode/)
    expect(status.fillTransactionHash).toBeNull()
  })
})

describe('settlement: concurrency', () => {
  it('settles 100 intents submitted at once from 100 accounts, each balance moved exactly once', async () => {
    const owners = Array.from({ length: 100 }, (_, i) =>
      privateKeyToAccount(keccak256(toHex(`settlement.test load ${i}`))),
    )
    await fundForPermit2(fx.devnet, owners, 10, 'USDC', usdc(10))
    const usdc8453 = tokenAddress(8453, 'USDC')
    const usdc10 = tokenAddress(10, 'USDC')
    const relayerBefore = await balanceOf(fx.devnet, 10, usdc10, fx.devnet.keys.relayer.address)
    const intents = await Promise.all(
      owners.map((owner) =>
        buildSignedIntent({
          signer: { kind: 'EOA', account: owner },
          server: fx.devnet.keys.server.account,
          fundingMethod: 'PERMIT2',
          origins: [{ chainId: 10, symbol: 'USDC', amount: usdc(3) }],
          destination: { chainId: 8453, symbol: 'USDC', amount: usdc(2) },
          now: fx.devnet.now(),
        }),
      ),
    )
    const results = await Promise.all(intents.map((i) => submit(i.signedIntentOp)))
    const statuses = await Promise.all(
      results.map((r) => waitForStatus(fx.stack.services.intents, r.id, ['COMPLETED', 'FAILED'], 120_000)),
    )
    expect(statuses.filter((s) => s.status !== 'COMPLETED')).toEqual([])
    const balances = await Promise.all(
      owners.map(async (o) => [
        await balanceOf(fx.devnet, 10, usdc10, o.address),
        await balanceOf(fx.devnet, 8453, usdc8453, o.address),
      ]),
    )
    expect(balances.every(([origin, destination]) => origin === usdc(7) && destination === usdc(2))).toBe(
      true,
    )
    expect(await balanceOf(fx.devnet, 10, usdc10, fx.devnet.keys.relayer.address)).toBe(
      relayerBefore + usdc(300),
    )
    expect(new Set(statuses.map((s) => s.fillTransactionHash)).size).toBe(100)
  }, 180_000)
})
