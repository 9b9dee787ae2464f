import { hashTypedData, parseEventLogs, zeroAddress } from 'viem'
import { describe, expect, test } from 'vitest'
import { EIP712_DOMAIN_TYPES_NO_CHAIN_ID, EMISSARY_ENABLE_TYPES } from '../../spec'
import { addresses } from '../addresses'
import { TheCompact } from '../generated/artifacts'
import {
  allocatorKey,
  emissaryAbi,
  emissaryDomain,
  otherEmissary,
  sponsor,
  strangerKey,
  useEmissaryChain,
  walletOwnerKey,
} from './support/emissaryFixture'

// The emissary's set-up: TheCompact's emissary assignment per lock tag and IntentEmissary's enable.
const fx = useEmissaryChain()

describe('TheCompact emissary assignment', () => {
  test('a first assignment is immediate', async () => {
    expect(await fx.status(fx.tag)).toEqual([0, 0n, zeroAddress])
    const receipt = await fx.assign(fx.tag, addresses.emissary)
    const events = parseEventLogs({ abi: TheCompact.abi, logs: receipt.logs, eventName: 'EmissaryAssigned' })
    expect(events.map((e) => e.args)).toEqual([{ sponsor, lockTag: fx.tag, emissary: addresses.emissary }])
    expect(await fx.status(fx.tag)).toEqual([1, 0n, addresses.emissary])
    // Per lock tag: the other tag still has none.
    expect(await fx.status(fx.tag2)).toEqual([0, 0n, zeroAddress])
  })

  test('replacing or removing one needs a schedule and the reset period to pass', async () => {
    await fx.assign(fx.tag, addresses.emissary)
    await expect(fx.assign(fx.tag, otherEmissary)).rejects.toThrow('EmissaryAssignmentUnavailable')
    await expect(fx.assign(fx.tag, zeroAddress)).rejects.toThrow('EmissaryAssignmentUnavailable')

    const receipt = await fx.schedule(fx.tag)
    const [scheduled] = parseEventLogs({
      abi: TheCompact.abi,
      logs: receipt.logs,
      eventName: 'EmissaryAssignmentScheduled',
    })
    const assignableAt = (await fx.chain.client.getBlock({ blockHash: receipt.blockHash })).timestamp + 60n
    expect(scheduled?.args).toEqual({ sponsor, lockTag: fx.tag, assignableAt })
    expect(await fx.status(fx.tag)).toEqual([2, assignableAt, addresses.emissary])
    await expect(fx.assign(fx.tag, otherEmissary)).rejects.toThrow('EmissaryAssignmentUnavailable')

    await fx.chain.client.setNextBlockTimestamp({ timestamp: assignableAt })
    await fx.assign(fx.tag, otherEmissary)
    expect(await fx.status(fx.tag)).toEqual([1, 0n, otherEmissary])
    // The schedule is used up: the next change waits again.
    await expect(fx.assign(fx.tag, zeroAddress)).rejects.toThrow('EmissaryAssignmentUnavailable')
  })

  test('refuses a lock tag of an unregistered allocator', async () => {
    await expect(fx.assign('0x3000000000000000000000aa', addresses.emissary)).rejects.toThrow(
      'UnregisteredAllocator',
    )
  })
})

describe('IntentEmissary enable', () => {
  test('stores the config when both the allocator and the account sign', async () => {
    const signed = await fx.signEnable(fx.tag)
    const digest = await fx.chain.client.readContract({
      address: addresses.emissary,
      abi: emissaryAbi,
      functionName: 'hashEnable',
      args: [signed.message],
    })
    // The contract's digest is viem's, from the shared types and a domain without chainId.
    expect(digest).toBe(
      hashTypedData({
        domain: emissaryDomain,
        types: { EIP712Domain: EIP712_DOMAIN_TYPES_NO_CHAIN_ID, ...EMISSARY_ENABLE_TYPES },
        primaryType: 'EmissaryEnable',
        message: signed.message,
      }),
    )
    await fx.enable(signed)
    const config = await fx.chain.client.readContract({
      address: addresses.emissary,
      abi: emissaryAbi,
      functionName: 'getConfig',
      args: [sponsor, fx.tag],
    })
    expect(config).toEqual([addresses.ownableValidator, addresses.allocator])
    // A nonce enables once.
    await expect(fx.enable(signed)).rejects.toThrow('NonceAlreadyUsed')
  })

  test('refuses a bad allocatorSig', async () => {
    await expect(fx.enable(await fx.signEnable(fx.tag, { allocator: strangerKey }))).rejects.toThrow(
      'InvalidAllocatorSignature',
    )
    // The account itself cannot stand in for the allocator.
    await expect(fx.enable(await fx.signEnable(fx.tag, { allocator: walletOwnerKey }))).rejects.toThrow(
      'InvalidAllocatorSignature',
    )
  })

  test('refuses a bad userSig', async () => {
    await expect(fx.enable(await fx.signEnable(fx.tag, { user: strangerKey }))).rejects.toThrow(
      'InvalidUserSignature',
    )
    // The allocator alone cannot enable a config for the account.
    await expect(fx.enable(await fx.signEnable(fx.tag, { user: allocatorKey }))).rejects.toThrow(
      'InvalidUserSignature',
    )
  })

  test('refuses an expired enable and an allocator the lock tag does not name', async () => {
    const signed = await fx.signEnable(fx.tag)
    await expect(fx.enable({ ...signed, message: { ...signed.message, expires: 1n } })).rejects.toThrow(
      'EnableExpired',
    )
    await expect(
      fx.enable({ ...signed, message: { ...signed.message, allocator: otherEmissary } }),
    ).rejects.toThrow('AllocatorMismatch')
  })
})
