import type { Address, Hex } from 'viem'
import { describe, expect, test } from 'vitest'
import { BATCH_COMPACT_TYPES } from '../../spec'
import { addresses } from '../addresses'
import { claimantOf, lockIdOf, send } from './helpers'
import {
  allocatorKey,
  compactAbi,
  otherEmissary,
  recipient,
  sponsor,
  strangerKey,
  usdc,
  useEmissaryChain,
  validatorOwner,
  walletOwnerKey,
} from './support/emissaryFixture'

// Claims whose sponsor signature only the emissary's validator accepts.
const fx = useEmissaryChain()

describe('a claim verified through the emissary', () => {
  test('a signature neither ECDSA- nor 1271-valid is refused without the emissary, accepted with it', async () => {
    // Not assigned, not enabled.
    await expect(fx.claim(await fx.compactClaim(fx.tag, validatorOwner, 1n))).rejects.toThrow(
      'InvalidSignature',
    )
    // Enabled on the emissary but not assigned on the Compact.
    await fx.enable(await fx.signEnable(fx.tag))
    await expect(fx.claim(await fx.compactClaim(fx.tag, validatorOwner, 2n))).rejects.toThrow(
      'InvalidSignature',
    )
    // Assigned: the emissary's validator accepts the owner's signature.
    await fx.assign(fx.tag, addresses.emissary)
    const before = await fx.usdcOf(recipient)
    await fx.claim(await fx.compactClaim(fx.tag, validatorOwner, 3n))
    expect((await fx.usdcOf(recipient)) - before).toBe(1_000n)
    // A key that is not an owner stays refused.
    await expect(fx.claim(await fx.compactClaim(fx.tag, strangerKey, 4n))).rejects.toThrow('InvalidSignature')
  })

  test('assigned but never enabled on the emissary: refused', async () => {
    await fx.assign(fx.tag, addresses.emissary)
    await expect(fx.claim(await fx.compactClaim(fx.tag, validatorOwner, 5n))).rejects.toThrow(
      'InvalidSignature',
    )
  })

  test("the wallet owner's ERC-1271 signature still works without an emissary", async () => {
    const before = await fx.usdcOf(recipient)
    await fx.claim(await fx.compactClaim(fx.tag, walletOwnerKey, 6n))
    expect((await fx.usdcOf(recipient)) - before).toBe(1_000n)
  })

  test('a batch claim needs the same emissary on every lock', async () => {
    await fx.enable(await fx.signEnable(fx.tag))
    await fx.assign(fx.tag, addresses.emissary)
    const batch = async (nonce: bigint) => {
      const expires = (await fx.now()) + 600n
      const commitments = [
        { lockTag: fx.tag, token: usdc as Address, amount: 10n },
        { lockTag: fx.tag2, token: usdc as Address, amount: 20n },
      ]
      const message = {
        arbiter: fx.arbiter.account.address,
        sponsor: sponsor as Address,
        nonce,
        expires,
        commitments,
      }
      const typed = {
        domain: fx.compactDomain(),
        types: BATCH_COMPACT_TYPES,
        primaryType: 'BatchCompact',
        message,
      } as const
      const payload = {
        allocatorData: await allocatorKey.signTypedData(typed),
        sponsorSignature: await validatorOwner.signTypedData(typed),
        sponsor: sponsor as Address,
        nonce,
        expires,
        witness: `0x${'00'.repeat(32)}` as Hex,
        witnessTypestring: '',
        claims: commitments.map((c) => ({
          id: lockIdOf(c.lockTag, usdc),
          allocatedAmount: c.amount,
          portions: [{ claimant: claimantOf('0x0', recipient), amount: c.amount }],
        })),
      }
      return send(
        fx.arbiter,
        fx.arbiter.writeContract({
          address: addresses.compact,
          abi: compactAbi,
          functionName: 'batchClaim',
          args: [payload],
        }),
      )
    }
    // tag2 has no emissary: the locks disagree.
    await expect(batch(7n)).rejects.toThrow('InvalidSignature')
    await fx.assign(fx.tag2, otherEmissary)
    await expect(batch(8n)).rejects.toThrow('InvalidSignature')
    // Both locks with our emissary: accepted (it is asked about the first lock's tag).
    await fx.schedule(fx.tag2)
    await fx.chain.client.increaseTime({ seconds: 15 })
    await fx.assign(fx.tag2, addresses.emissary)
    const before = await fx.usdcOf(recipient)
    await batch(9n)
    expect((await fx.usdcOf(recipient)) - before).toBe(30n)
  })
})
