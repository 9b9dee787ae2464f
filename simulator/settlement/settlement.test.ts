// Own devnet, not the shared one: in-process relayers restarted on state dirs, clock advanced, snapshot/revert by the Devnet object, and 100 funded accounts.
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { encodeFunctionData, erc20Abi, type Hash, keccak256, parseUnits, toHex } from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { addresses } from '../../contracts/addresses'
import type { SignedIntentOp } from '../../spec'
import { isMined } from '../devnet/isMined'
import { type Devnet, startDevnet } from '../devnet/startDevnet'
import { createFaults } from '../faults/faults'
import { ApiError } from '../http/errorCodes'
import { toApiErrorOfDomain } from '../http/errorMapping'
import { toBlancStatus } from '../http/versions/intentStatus'
import { createServices } from '../startSimulator'
import { fillerAbi } from './abis'
import { fillArgs } from './contractArgs'
import { getFillId } from './getFillId'
import {
  approvePermit2,
  balanceOf,
  buildSignedIntent,
  compactBalanceOf,
  fundForPermit2,
  tokenAddress,
} from './testing/buildSignedIntent'
import { waitForStatus } from './testing/waitForStatus'

const usdc = (n: number) => parseUnits(String(n), 6)
let devnet: Devnet
let stack: Awaited<ReturnType<typeof createServices>>

beforeAll(async () => {
  devnet = await startDevnet({ chainIds: [10, 8453, 42161], accountCount: 8 })
  stack = await createServices({ devnet, faults: createFaults() })
}, 120_000)

afterAll(async () => {
  await stack?.stop()
  await devnet?.stop()
})

async function expectMined(chainId: number, hash: unknown) {
  const receipt = await devnet
    .chain(chainId)
    .publicClient.getTransactionReceipt({ hash: hash as `0x${string}` })
  expect(receipt.status).toBe('success')
}

const submit = (signedIntentOp: SignedIntentOp) => stack.services.intents.submitOperation(signedIntentOp)

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
    const user = devnet.keys.accounts[0]!.account
    const usdc10 = tokenAddress(10, 'USDC')
    const usdc8453 = tokenAddress(8453, 'USDC')
    await approvePermit2(devnet, user, 10, usdc10)
    const before = {
      user10: await balanceOf(devnet, 10, usdc10, user.address),
      relayer10: await balanceOf(devnet, 10, usdc10, devnet.keys.relayer.address),
      user8453: await balanceOf(devnet, 8453, usdc8453, user.address),
    }
    const { signedIntentOp } = await buildSignedIntent({
      signer: { kind: 'EOA', account: user },
      server: devnet.keys.server.account,
      fundingMethod: 'PERMIT2',
      origins: [{ chainId: 10, symbol: 'USDC', amount: usdc(101) }],
      destination: { chainId: 8453, symbol: 'USDC', amount: usdc(100) },
      now: devnet.now(),
    })
    const result = await submit(signedIntentOp)
    expect(result.status).toBe('PENDING')
    const status = await waitForStatus(stack.services.intents, result.id, ['COMPLETED', 'FAILED'])
    expect(status).toMatchObject({ status: 'COMPLETED', destinationChainId: 8453, userAddress: user.address })
    await expectMined(8453, status.fillTransactionHash)
    expect(status.claims).toHaveLength(1)
    await expectMined(10, status.claims[0]!.claimTransactionHash)
    expect(await balanceOf(devnet, 8453, usdc8453, user.address)).toBe(before.user8453 + usdc(100))
    expect(await balanceOf(devnet, 10, usdc10, user.address)).toBe(before.user10 - usdc(101))
    expect(await balanceOf(devnet, 10, usdc10, devnet.keys.relayer.address)).toBe(
      before.relayer10 + usdc(101),
    )

    // The same intent again: a conflict, never a second fill.
    expect((await apiError(submit(signedIntentOp))).code).toBe('CONFLICT')
  })

  it('settles a Compact-funded intent from two origin chains to another recipient', async () => {
    const user = devnet.keys.accounts[1]!.account
    const recipient = privateKeyToAccount(keccak256(toHex('settlement.test recipient'))).address
    const [usdc10, usdc42161, usdc8453] = [
      tokenAddress(10, 'USDC'),
      tokenAddress(42161, 'USDC'),
      tokenAddress(8453, 'USDC'),
    ]
    const lock10 = await compactBalanceOf(devnet, 10, usdc10, user.address)
    const lock42161 = await compactBalanceOf(devnet, 42161, usdc42161, user.address)
    const { signedIntentOp } = await buildSignedIntent({
      signer: { kind: 'EOA', account: user },
      server: devnet.keys.server.account,
      fundingMethod: 'COMPACT',
      origins: [
        { chainId: 10, symbol: 'USDC', amount: usdc(30) },
        { chainId: 42161, symbol: 'USDC', amount: usdc(21) },
      ],
      destination: { chainId: 8453, symbol: 'USDC', amount: usdc(50) },
      recipient,
      now: devnet.now(),
    })
    const result = await submit(signedIntentOp)
    const status = await waitForStatus(stack.services.intents, result.id, ['COMPLETED', 'FAILED'])
    expect(status.status).toBe('COMPLETED')
    expect(status.claims.map((c) => c.chainId).sort()).toEqual([10, 42161])
    for (const claim of status.claims) await expectMined(claim.chainId, claim.claimTransactionHash)
    expect(await balanceOf(devnet, 8453, usdc8453, recipient)).toBe(usdc(50))
    expect(await compactBalanceOf(devnet, 10, usdc10, user.address)).toBe(lock10 - usdc(30))
    expect(await compactBalanceOf(devnet, 42161, usdc42161, user.address)).toBe(lock42161 - usdc(21))

    const found = await stack.services.intents.findIntent(result.id)
    const blanc = found && toBlancStatus(found)
    expect(blanc?.operations.find((o) => o.chain === 8453)?.items).toEqual([
      expect.objectContaining({ type: 'FILL', status: 'COMPLETED', txHash: status.fillTransactionHash }),
    ])
  })

  it('refuses a tampered intent and a foreign signature with a 4xx naming the check, sending nothing', async () => {
    const user = devnet.keys.accounts[2]!.account
    const stranger = privateKeyToAccount(keccak256(toHex('settlement.test stranger')))
    const nonceBefore = await devnet
      .chain(8453)
      .publicClient.getTransactionCount({ address: devnet.keys.relayer.address })
    const build = () =>
      buildSignedIntent({
        signer: { kind: 'EOA', account: user },
        server: devnet.keys.server.account,
        fundingMethod: 'COMPACT',
        origins: [{ chainId: 10, symbol: 'USDC', amount: usdc(5) }],
        destination: { chainId: 8453, symbol: 'USDC', amount: usdc(4) },
        now: devnet.now(),
      })
    const tampered = (await build()).signedIntentOp
    tampered.elements[0]!.mandate.tokenOut[0]![1] = String(usdc(400))
    const refused = await apiError(submit(tampered))
    expect(refused.statusCode).toBe(400)
    expect(refused.shortMessage).toContain('serverSignature')

    const { signedIntentOp } = await build()
    const foreign = await buildSignedIntent({
      signer: { kind: 'EOA', account: stranger },
      server: devnet.keys.server.account,
      fundingMethod: 'COMPACT',
      origins: [{ chainId: 10, symbol: 'USDC', amount: usdc(5) }],
      destination: { chainId: 8453, symbol: 'USDC', amount: usdc(4) },
      now: devnet.now(),
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
      await devnet.chain(8453).publicClient.getTransactionCount({ address: devnet.keys.relayer.address }),
    ).toBe(nonceBefore)
  })

  it('answers a dry run with whether the intent would settle, and why not', async () => {
    const user = devnet.keys.accounts[3]!.account
    const base = {
      signer: { kind: 'EOA' as const, account: user },
      server: devnet.keys.server.account,
      fundingMethod: 'COMPACT' as const,
      destination: { chainId: 8453, symbol: 'USDC', amount: usdc(1) },
      dryRun: true,
    }
    const simulate = (signedIntentOp: SignedIntentOp) =>
      stack.services.intents.simulateOperation(signedIntentOp)
    const ok = await simulate(
      (
        await buildSignedIntent({
          ...base,
          origins: [{ chainId: 10, symbol: 'USDC', amount: usdc(2) }],
          now: devnet.now(),
        })
      ).signedIntentOp,
    )
    expect(ok).toMatchObject({ wouldSettle: true })
    const tooMuch = await simulate(
      (
        await buildSignedIntent({
          ...base,
          origins: [{ chainId: 10, symbol: 'USDC', amount: usdc(1_000_000) }],
          now: devnet.now(),
        })
      ).signedIntentOp,
    )
    expect(tooMuch).toMatchObject({ wouldSettle: false })
    expect(String(tooMuch.reason)).toContain('claim on chain 10')
  })

  it('fails an intent whose destination ops revert, with the decoded reason', async () => {
    const user = devnet.keys.accounts[4]!.account
    const { signedIntentOp } = await buildSignedIntent({
      signer: { kind: 'EOA', account: user },
      server: devnet.keys.server.account,
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
      now: devnet.now(),
    })
    const result = await submit(signedIntentOp)
    const status = await waitForStatus(stack.services.intents, result.id, ['COMPLETED', 'FAILED'])
    expect(status.status).toBe('FAILED')
    expect(status.failureReason).toMatch(/^fill: DestinationOpsFailed → AccountHasNoCode/)
    expect(status.fillTransactionHash).toBeNull()
  })
})

describe('settlement: expiry and restart', () => {
  it('expires an intent left unfilled past its fill deadline on the devnet clock', async () => {
    const slow = await createServices({ devnet, faults: createFaults(), pickupDelayMs: 3_000 })
    try {
      const { signedIntentOp } = await buildSignedIntent({
        signer: { kind: 'EOA', account: devnet.keys.accounts[5]!.account },
        server: devnet.keys.server.account,
        fundingMethod: 'COMPACT',
        origins: [{ chainId: 10, symbol: 'USDC', amount: usdc(3) }],
        destination: { chainId: 8453, symbol: 'USDC', amount: usdc(2) },
        now: devnet.now(),
        fillDeadline: devnet.now() + 60,
      })
      const result = await slow.services.intents.submitOperation(signedIntentOp)
      await devnet.advanceClock(120)
      const status = await waitForStatus(slow.services.intents, result.id, ['EXPIRED', 'COMPLETED', 'FAILED'])
      expect(status.status).toBe('EXPIRED')
      expect(status.claims.map((c) => c.status)).toEqual(['EXPIRED'])
      await slow.settlement.idle()
      expect((await slow.services.intents.getIntent(result.id))?.status).toBe('EXPIRED')
    } finally {
      await slow.stop()
    }
  })

  it('resumes intents in flight after a restart, finding a fill already mined on chain', async () => {
    const stateDir = await mkdtemp(join(tmpdir(), 'settlement-'))
    try {
      const first = await createServices({ devnet, faults: createFaults(), stateDir, pickupDelayMs: 60_000 })
      const user = devnet.keys.accounts[6]!.account
      const build = (amount: number) =>
        buildSignedIntent({
          signer: { kind: 'EOA', account: user },
          server: devnet.keys.server.account,
          fundingMethod: 'COMPACT',
          origins: [{ chainId: 42161, symbol: 'USDC', amount: usdc(amount + 1) }],
          destination: { chainId: 8453, symbol: 'USDC', amount: usdc(amount) },
          now: devnet.now(),
        })
      const a = await build(7)
      const b = await build(8)
      const idA = (await first.services.intents.submitOperation(a.signedIntentOp)).id
      const idB = (await first.services.intents.submitOperation(b.signedIntentOp)).id
      await first.intentStore.flush()
      // "Crash" before the relayer picked them up; meanwhile B's fill lands on chain (e.g. sent just before the crash).
      const payloadB = first.intentStore.get(idB)!.payload
      const chain = devnet.chain(8453)
      const fillHash = await chain.relayerClient.writeContract({
        address: addresses.filler,
        abi: fillerAbi,
        functionName: 'fill',
        args: fillArgs(payloadB),
      })
      expect(
        (await chain.publicClient.waitForTransactionReceipt({ hash: fillHash, pollingInterval: 20 })).status,
      ).toBe('success')

      const second = await createServices({ devnet, faults: createFaults(), stateDir })
      try {
        const statusA = await waitForStatus(second.services.intents, idA, ['COMPLETED', 'FAILED'])
        const statusB = await waitForStatus(second.services.intents, idB, ['COMPLETED', 'FAILED'])
        expect([statusA.status, statusB.status]).toEqual(['COMPLETED', 'COMPLETED'])
        expect(statusB.fillTransactionHash).toBe(fillHash)
      } finally {
        await second.stop()
      }
      await first.stop()
    } finally {
      await rm(stateDir, { recursive: true, force: true })
    }
  })
})

describe('settlement: chains restored from an older save', () => {
  it('rewinds a COMPLETED intent whose fill and claim the chains no longer hold, and settles it again once', async () => {
    const stateDir = await mkdtemp(join(tmpdir(), 'settlement-rewind-'))
    try {
      const user = devnet.keys.accounts[7]!.account
      const recipient = privateKeyToAccount(keccak256(toHex('rewound recipient'))).address
      const usdc8453 = tokenAddress(8453, 'USDC')
      // The chains as a checkpoint saved them, before the intent.
      const { id: checkpoint } = await devnet.snapshot()
      const first = await createServices({ devnet, faults: createFaults(), stateDir })
      const { signedIntentOp } = await buildSignedIntent({
        signer: { kind: 'EOA', account: user },
        server: devnet.keys.server.account,
        fundingMethod: 'COMPACT',
        origins: [{ chainId: 42161, symbol: 'USDC', amount: usdc(6) }],
        destination: { chainId: 8453, symbol: 'USDC', amount: usdc(5) },
        recipient,
        now: devnet.now(),
      })
      const { id } = await first.services.intents.submitOperation(signedIntentOp)
      const done = await waitForStatus(first.services.intents, id, ['COMPLETED', 'FAILED'])
      expect(done.status).toBe('COMPLETED')
      expect(await balanceOf(devnet, 8453, usdc8453, recipient)).toBe(usdc(5))
      await first.stop()

      // The machine died with its Anvils: the chains come back from the checkpoint.
      expect(await devnet.revert(checkpoint)).toBe(true)
      const destination = devnet.chain(8453).publicClient
      const restoredHead = await destination.getBlockNumber()
      expect(await balanceOf(devnet, 8453, usdc8453, recipient)).toBe(0n)
      expect(await isMined(destination, done.fillTransactionHash as Hash)).toBe(false)

      const second = await createServices({ devnet, faults: createFaults(), stateDir })
      try {
        const record = second.intentStore.get(id)!
        const events = () => second.intentStore.get(id)!.history.map((h) => h.event)
        expect(events()).toContain('rewound')
        const again = await waitForStatus(second.services.intents, id, ['COMPLETED', 'FAILED'])
        expect(again.status).toBe('COMPLETED')
        // The restored chains hold the checkpoint's nonce and base fee, so the fill sent again can
        // be byte for byte the first (same hash): what proves it was sent again is that it is
        // mined on the restored chain, after the restore, and only once.
        const receipt = await destination.getTransactionReceipt({ hash: again.fillTransactionHash as Hash })
        expect(receipt.status).toBe('success')
        expect(receipt.blockNumber).toBeGreaterThan(restoredHead)
        const fills = await destination.getContractEvents({
          address: addresses.filler,
          abi: fillerAbi,
          eventName: 'Filled',
          args: { fillId: await getFillId(devnet, record.payload) },
          fromBlock: 0n,
        })
        expect(fills.map((log) => log.transactionHash)).toEqual([again.fillTransactionHash])
        const afterRewind = events().slice(events().lastIndexOf('rewound'))
        expect(afterRewind.filter((event) => event === 'fillMined')).toHaveLength(1)
        expect(await balanceOf(devnet, 8453, usdc8453, recipient)).toBe(usdc(5))
      } finally {
        await second.stop()
      }
    } finally {
      await rm(stateDir, { recursive: true, force: true })
    }
  })
})

describe('settlement: concurrency', () => {
  it('settles 100 intents submitted at once from 100 accounts, each balance moved exactly once', async () => {
    const owners = Array.from({ length: 100 }, (_, i) =>
      privateKeyToAccount(keccak256(toHex(`settlement.test load ${i}`))),
    )
    await fundForPermit2(devnet, owners, 10, 'USDC', usdc(10))
    const usdc8453 = tokenAddress(8453, 'USDC')
    const usdc10 = tokenAddress(10, 'USDC')
    const relayerBefore = await balanceOf(devnet, 10, usdc10, devnet.keys.relayer.address)
    const intents = await Promise.all(
      owners.map((owner) =>
        buildSignedIntent({
          signer: { kind: 'EOA', account: owner },
          server: devnet.keys.server.account,
          fundingMethod: 'PERMIT2',
          origins: [{ chainId: 10, symbol: 'USDC', amount: usdc(3) }],
          destination: { chainId: 8453, symbol: 'USDC', amount: usdc(2) },
          now: devnet.now(),
        }),
      ),
    )
    const results = await Promise.all(intents.map((i) => submit(i.signedIntentOp)))
    const statuses = await Promise.all(
      results.map((r) => waitForStatus(stack.services.intents, r.id, ['COMPLETED', 'FAILED'], 120_000)),
    )
    expect(statuses.filter((s) => s.status !== 'COMPLETED')).toEqual([])
    const balances = await Promise.all(
      owners.map(async (o) => [
        await balanceOf(devnet, 10, usdc10, o.address),
        await balanceOf(devnet, 8453, usdc8453, o.address),
      ]),
    )
    expect(balances.every(([origin, destination]) => origin === usdc(7) && destination === usdc(2))).toBe(
      true,
    )
    expect(await balanceOf(devnet, 10, usdc10, devnet.keys.relayer.address)).toBe(relayerBefore + usdc(300))
    expect(new Set(statuses.map((s) => s.fillTransactionHash)).size).toBe(100)
  }, 180_000)
})
