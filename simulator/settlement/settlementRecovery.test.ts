// Own devnet, not the shared one: in-process relayers restarted on state dirs, clock advanced, snapshot/revert by the Devnet object.
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { type Hash, keccak256, toHex } from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { describe, expect, it } from 'vitest'
import { addresses } from '../../contracts/addresses'
import { isMined } from '../devnet/isMined'
import { createFaults } from '../faults/faults'
import { createServices } from '../startSimulator'
import { fillerAbi } from './abis'
import { fillArgs } from './contractArgs'
import { getFillId } from './getFillId'
import { balanceOf, buildSignedIntent, tokenAddress } from './testing/buildSignedIntent'
import { usdc, useSettlementDevnet } from './testing/useSettlementDevnet'
import { waitForStatus } from './testing/waitForStatus'

const fx = useSettlementDevnet()

describe('settlement: expiry and restart', () => {
  it('expires an intent left unfilled past its fill deadline on the devnet clock', async () => {
    const slow = await createServices({ devnet: fx.devnet, faults: createFaults(), pickupDelayMs: 3_000 })
    try {
      const { signedIntentOp } = await buildSignedIntent({
        signer: { kind: 'EOA', account: fx.devnet.keys.accounts[5]!.account },
        server: fx.devnet.keys.server.account,
        fundingMethod: 'COMPACT',
        origins: [{ chainId: 10, symbol: 'USDC', amount: usdc(3) }],
        destination: { chainId: 8453, symbol: 'USDC', amount: usdc(2) },
        now: fx.devnet.now(),
        fillDeadline: fx.devnet.now() + 60,
      })
      const result = await slow.services.intents.submitOperation(signedIntentOp)
      await fx.devnet.advanceClock(120)
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
      const first = await createServices({
        devnet: fx.devnet,
        faults: createFaults(),
        stateDir,
        pickupDelayMs: 60_000,
      })
      const user = fx.devnet.keys.accounts[6]!.account
      const build = (amount: number) =>
        buildSignedIntent({
          signer: { kind: 'EOA', account: user },
          server: fx.devnet.keys.server.account,
          fundingMethod: 'COMPACT',
          origins: [{ chainId: 42161, symbol: 'USDC', amount: usdc(amount + 1) }],
          destination: { chainId: 8453, symbol: 'USDC', amount: usdc(amount) },
          now: fx.devnet.now(),
        })
      const a = await build(7)
      const b = await build(8)
      const idA = (await first.services.intents.submitOperation(a.signedIntentOp)).id
      const idB = (await first.services.intents.submitOperation(b.signedIntentOp)).id
      await first.intentStore.flush()
      // "Crash" before the relayer picked them up; meanwhile B's fill lands on chain (e.g. sent just before the crash).
      const payloadB = first.intentStore.get(idB)!.payload
      const chain = fx.devnet.chain(8453)
      const fillHash = await chain.relayerClient.writeContract({
        address: addresses.filler,
        abi: fillerAbi,
        functionName: 'fill',
        args: fillArgs(payloadB),
      })
      expect(
        (await chain.publicClient.waitForTransactionReceipt({ hash: fillHash, pollingInterval: 20 })).status,
      ).toBe('success')

      const second = await createServices({ devnet: fx.devnet, faults: createFaults(), stateDir })
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
      const user = fx.devnet.keys.accounts[7]!.account
      const recipient = privateKeyToAccount(keccak256(toHex('rewound recipient'))).address
      const usdc8453 = tokenAddress(8453, 'USDC')
      // The chains as a checkpoint saved them, before the intent.
      const { id: checkpoint } = await fx.devnet.snapshot()
      const first = await createServices({ devnet: fx.devnet, faults: createFaults(), stateDir })
      const { signedIntentOp } = await buildSignedIntent({
        signer: { kind: 'EOA', account: user },
        server: fx.devnet.keys.server.account,
        fundingMethod: 'COMPACT',
        origins: [{ chainId: 42161, symbol: 'USDC', amount: usdc(6) }],
        destination: { chainId: 8453, symbol: 'USDC', amount: usdc(5) },
        recipient,
        now: fx.devnet.now(),
      })
      const { id } = await first.services.intents.submitOperation(signedIntentOp)
      const done = await waitForStatus(first.services.intents, id, ['COMPLETED', 'FAILED'])
      expect(done.status).toBe('COMPLETED')
      expect(await balanceOf(fx.devnet, 8453, usdc8453, recipient)).toBe(usdc(5))
      await first.stop()

      // The machine died with its Anvils: the chains come back from the checkpoint.
      expect(await fx.devnet.revert(checkpoint)).toBe(true)
      const destination = fx.devnet.chain(8453).publicClient
      const restoredHead = await destination.getBlockNumber()
      expect(await balanceOf(fx.devnet, 8453, usdc8453, recipient)).toBe(0n)
      expect(await isMined(destination, done.fillTransactionHash as Hash)).toBe(false)

      const second = await createServices({ devnet: fx.devnet, faults: createFaults(), stateDir })
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
          args: { fillId: await getFillId(fx.devnet, record.payload) },
          fromBlock: 0n,
        })
        expect(fills.map((log) => log.transactionHash)).toEqual([again.fillTransactionHash])
        const afterRewind = events().slice(events().lastIndexOf('rewound'))
        expect(afterRewind.filter((event) => event === 'fillMined')).toHaveLength(1)
        expect(await balanceOf(fx.devnet, 8453, usdc8453, recipient)).toBe(usdc(5))
      } finally {
        await second.stop()
      }
    } finally {
      await rm(stateDir, { recursive: true, force: true })
    }
  })
})
