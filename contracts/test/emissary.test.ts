import {
  type Address,
  encodeAbiParameters,
  encodeFunctionData,
  type Hex,
  hashTypedData,
  keccak256,
  parseEventLogs,
  toHex,
  zeroAddress,
} from 'viem'
import { type PrivateKeyAccount, privateKeyToAccount } from 'viem/accounts'
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'vitest'
import {
  BATCH_COMPACT_TYPES,
  COMPACT_TYPES,
  EIP712_DOMAIN_TYPES_NO_CHAIN_ID,
  EMISSARY_ENABLE_TYPES,
} from '../../spec'
import { addresses } from '../addresses'
import {
  Allocator,
  DevnetERC20,
  IntentEmissary,
  OwnableValidator,
  TestERC1271Wallet,
  TheCompact,
} from '../generated/artifacts'
import {
  anvilAccounts,
  claimantOf,
  lockIdOf,
  lockTagOf,
  mintAndApprove,
  placeCompact,
  placeContract,
  placeToken,
  send,
  startTestChain,
  type TestChain,
  type TestWallet,
} from './helpers'

const usdc = '0x0b2C639c533813f4Aa9D7837CAf62653d097Ff85' as const
/** The sponsor: a contract wallet whose ERC-1271 accepts only its owner's ECDSA. */
const sponsor = '0x000000000000000000000000000000000E1551e5' as const
// Errors of every contract a call may pass through, so viem names them.
const walletAbi = [
  ...TestERC1271Wallet.abi,
  ...TheCompact.abi.filter((i) => i.type === 'error'),
  ...IntentEmissary.abi.filter((i) => i.type === 'error'),
]
const compactAbi = [...TheCompact.abi, ...Allocator.abi.filter((i) => i.type === 'error')]
const emissaryAbi = IntentEmissary.abi

const allocatorKey = anvilAccounts[3]!
/** Owner of the sponsor wallet: its ECDSA is what the wallet's ERC-1271 accepts. */
const walletOwnerKey = anvilAccounts[5]!
/** The sponsor's OwnableValidator owner: its raw ECDSA is neither ECDSA- nor 1271-valid for the sponsor. */
const validatorOwner = privateKeyToAccount(keccak256(toHex('emissary.test validator owner')))
const strangerKey = privateKeyToAccount(keccak256(toHex('emissary.test stranger')))
const recipient = anvilAccounts[6]!.address
const otherEmissary = '0x000000000000000000000000000000000000E222' as const

let chain: TestChain
let deployer: TestWallet
let arbiter: TestWallet
let walletOwner: TestWallet
let tag: Hex // Multichain, reset period 2 (one minute)
let tag2: Hex // Multichain, reset period 1 (15 s)
let snapshot: Hex

const compactDomain = () =>
  ({
    name: 'The Compact',
    version: '1',
    chainId: chain.chain.id,
    verifyingContract: addresses.compact,
  }) as const
const emissaryDomain = {
  name: 'IntentEmissary',
  version: '1',
  verifyingContract: addresses.emissary,
} as const

async function now(): Promise<bigint> {
  return (await chain.client.getBlock()).timestamp
}

/** Sends `data` to `target` from the sponsor wallet (its owner calls `execute`). */
async function asSponsor(target: Address, data: Hex) {
  const hash = await walletOwner.writeContract({
    address: sponsor,
    abi: walletAbi,
    functionName: 'execute',
    args: [target, 0n, data],
  })
  const receipt = await walletOwner.waitForTransactionReceipt({ hash })
  if (receipt.status !== 'success') throw new Error(`execute ${hash} reverted`)
  return receipt
}

const assign = (lockTag: Hex, emissary: Address) =>
  asSponsor(
    addresses.compact,
    encodeFunctionData({ abi: TheCompact.abi, functionName: 'assignEmissary', args: [lockTag, emissary] }),
  )
const schedule = (lockTag: Hex) =>
  asSponsor(
    addresses.compact,
    encodeFunctionData({ abi: TheCompact.abi, functionName: 'scheduleEmissaryAssignment', args: [lockTag] }),
  )
const status = (lockTag: Hex) =>
  chain.client.readContract({
    address: addresses.compact,
    abi: TheCompact.abi,
    functionName: 'getEmissaryStatus',
    args: [sponsor, lockTag],
  })

/** An EmissaryEnable for the sponsor and `lockTag`, signed by `allocator` and `user` (the wallet's owner). */
async function signEnable(
  lockTag: Hex,
  options: { allocator?: PrivateKeyAccount; user?: PrivateKeyAccount; nonce?: bigint } = {},
) {
  const message = {
    account: sponsor as Address,
    lockTag,
    validator: addresses.ownableValidator as Address,
    allocator: addresses.allocator as Address,
    nonce: options.nonce ?? 1n,
    expires: (await now()) + 3600n,
  }
  const typed = {
    domain: emissaryDomain,
    types: EMISSARY_ENABLE_TYPES,
    primaryType: 'EmissaryEnable',
    message,
  } as const
  return {
    message,
    allocatorSig: await (options.allocator ?? allocatorKey).signTypedData(typed),
    userSig: await (options.user ?? walletOwnerKey).signTypedData(typed),
  }
}

const enable = (signed: Awaited<ReturnType<typeof signEnable>>) =>
  send(
    deployer,
    deployer.writeContract({
      address: addresses.emissary,
      abi: emissaryAbi,
      functionName: 'enable',
      args: [signed.message, signed.allocatorSig, signed.userSig],
    }),
  )

/** A plain `Compact` over `amount` of the sponsor's USDC lock under `lockTag`, signed by `signer`. */
async function compactClaim(lockTag: Hex, signer: PrivateKeyAccount, nonce: bigint, amount = 1_000n) {
  const expires = (await now()) + 600n
  const message = {
    arbiter: arbiter.account.address,
    sponsor: sponsor as Address,
    nonce,
    expires,
    lockTag,
    token: usdc as Address,
    amount,
  }
  const typed = { domain: compactDomain(), types: COMPACT_TYPES, primaryType: 'Compact', message } as const
  return {
    allocatorData: await allocatorKey.signTypedData(typed),
    sponsorSignature: await signer.signTypedData(typed),
    sponsor: sponsor as Address,
    nonce,
    expires,
    witness: `0x${'00'.repeat(32)}` as Hex,
    witnessTypestring: '',
    id: lockIdOf(lockTag, usdc),
    allocatedAmount: amount,
    claimants: [{ claimant: claimantOf('0x0', recipient), amount }],
  } as const
}

const claim = (payload: Awaited<ReturnType<typeof compactClaim>>) =>
  send(
    arbiter,
    arbiter.writeContract({
      address: addresses.compact,
      abi: compactAbi,
      functionName: 'claim',
      args: [payload],
    }),
  )

const usdcOf = (holder: Address) =>
  chain.client.readContract({
    address: usdc,
    abi: DevnetERC20.abi,
    functionName: 'balanceOf',
    args: [holder],
  })

beforeAll(async () => {
  chain = await startTestChain({ chainId: 10 })
  deployer = chain.wallets[0]!
  arbiter = chain.wallets[2]!
  walletOwner = chain.wallets[5]!
  const { allocatorId } = await placeCompact(chain, allocatorKey.address, deployer)
  tag = lockTagOf(allocatorId, 0, 2)
  tag2 = lockTagOf(allocatorId, 0, 1)
  await placeContract(chain.client, addresses.emissary, IntentEmissary)
  await placeContract(chain.client, addresses.ownableValidator, OwnableValidator)
  await placeContract(chain.client, sponsor, TestERC1271Wallet)
  await send(
    walletOwner,
    walletOwner.writeContract({
      address: sponsor,
      abi: TestERC1271Wallet.abi,
      functionName: 'initialize',
      args: [walletOwnerKey.address],
    }),
  )
  // The sponsor's validator owner: what the emissary's validator checks claims against.
  await asSponsor(
    addresses.ownableValidator,
    encodeFunctionData({
      abi: OwnableValidator.abi,
      functionName: 'onInstall',
      args: [
        encodeAbiParameters([{ type: 'uint256' }, { type: 'address[]' }], [1n, [validatorOwner.address]]),
      ],
    }),
  )
  await placeToken(chain, usdc, { name: 'USD Coin', symbol: 'USDC', decimals: 6 }, deployer)
  await mintAndApprove({
    token: usdc,
    minter: deployer,
    owner: deployer,
    amount: 1_000_000n,
    spender: addresses.compact,
  })
  for (const lockTag of [tag, tag2])
    await send(
      deployer,
      deployer.writeContract({
        address: addresses.compact,
        abi: TheCompact.abi,
        functionName: 'depositERC20',
        args: [usdc, lockTag, 100_000n, sponsor],
      }),
    )
  snapshot = await chain.client.snapshot()
}, 60_000)

beforeEach(async () => {
  await chain.client.revert({ id: snapshot })
  snapshot = await chain.client.snapshot()
})

afterAll(async () => {
  await chain?.stop()
})

describe('TheCompact emissary assignment', () => {
  test('a first assignment is immediate', async () => {
    expect(await status(tag)).toEqual([0, 0n, zeroAddress])
    const receipt = await assign(tag, addresses.emissary)
    const events = parseEventLogs({ abi: TheCompact.abi, logs: receipt.logs, eventName: 'EmissaryAssigned' })
    expect(events.map((e) => e.args)).toEqual([{ sponsor, lockTag: tag, emissary: addresses.emissary }])
    expect(await status(tag)).toEqual([1, 0n, addresses.emissary])
    // Per lock tag: the other tag still has none.
    expect(await status(tag2)).toEqual([0, 0n, zeroAddress])
  })

  test('replacing or removing one needs a schedule and the reset period to pass', async () => {
    await assign(tag, addresses.emissary)
    await expect(assign(tag, otherEmissary)).rejects.toThrow('EmissaryAssignmentUnavailable')
    await expect(assign(tag, zeroAddress)).rejects.toThrow('EmissaryAssignmentUnavailable')

    const receipt = await schedule(tag)
    const [scheduled] = parseEventLogs({
      abi: TheCompact.abi,
      logs: receipt.logs,
      eventName: 'EmissaryAssignmentScheduled',
    })
    const assignableAt = (await chain.client.getBlock({ blockHash: receipt.blockHash })).timestamp + 60n
    expect(scheduled?.args).toEqual({ sponsor, lockTag: tag, assignableAt })
    expect(await status(tag)).toEqual([2, assignableAt, addresses.emissary])
    await expect(assign(tag, otherEmissary)).rejects.toThrow('EmissaryAssignmentUnavailable')

    await chain.client.setNextBlockTimestamp({ timestamp: assignableAt })
    await assign(tag, otherEmissary)
    expect(await status(tag)).toEqual([1, 0n, otherEmissary])
    // The schedule is used up: the next change waits again.
    await expect(assign(tag, zeroAddress)).rejects.toThrow('EmissaryAssignmentUnavailable')
  })

  test('refuses a lock tag of an unregistered allocator', async () => {
    await expect(assign('0x3000000000000000000000aa', addresses.emissary)).rejects.toThrow(
      'UnregisteredAllocator',
    )
  })
})

describe('IntentEmissary enable', () => {
  test('stores the config when both the allocator and the account sign', async () => {
    const signed = await signEnable(tag)
    const digest = await chain.client.readContract({
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
    await enable(signed)
    const config = await chain.client.readContract({
      address: addresses.emissary,
      abi: emissaryAbi,
      functionName: 'getConfig',
      args: [sponsor, tag],
    })
    expect(config).toEqual([addresses.ownableValidator, addresses.allocator])
    // A nonce enables once.
    await expect(enable(signed)).rejects.toThrow('NonceAlreadyUsed')
  })

  test('refuses a bad allocatorSig', async () => {
    await expect(enable(await signEnable(tag, { allocator: strangerKey }))).rejects.toThrow(
      'InvalidAllocatorSignature',
    )
    // The account itself cannot stand in for the allocator.
    await expect(enable(await signEnable(tag, { allocator: walletOwnerKey }))).rejects.toThrow(
      'InvalidAllocatorSignature',
    )
  })

  test('refuses a bad userSig', async () => {
    await expect(enable(await signEnable(tag, { user: strangerKey }))).rejects.toThrow('InvalidUserSignature')
    // The allocator alone cannot enable a config for the account.
    await expect(enable(await signEnable(tag, { user: allocatorKey }))).rejects.toThrow(
      'InvalidUserSignature',
    )
  })

  test('refuses an expired enable and an allocator the lock tag does not name', async () => {
    const signed = await signEnable(tag)
    await expect(enable({ ...signed, message: { ...signed.message, expires: 1n } })).rejects.toThrow(
      'EnableExpired',
    )
    await expect(
      enable({ ...signed, message: { ...signed.message, allocator: otherEmissary } }),
    ).rejects.toThrow('AllocatorMismatch')
  })
})

describe('a claim verified through the emissary', () => {
  test('a signature neither ECDSA- nor 1271-valid is refused without the emissary, accepted with it', async () => {
    // Not assigned, not enabled.
    await expect(claim(await compactClaim(tag, validatorOwner, 1n))).rejects.toThrow('InvalidSignature')
    // Enabled on the emissary but not assigned on the Compact.
    await enable(await signEnable(tag))
    await expect(claim(await compactClaim(tag, validatorOwner, 2n))).rejects.toThrow('InvalidSignature')
    // Assigned: the emissary's validator accepts the owner's signature.
    await assign(tag, addresses.emissary)
    const before = await usdcOf(recipient)
    await claim(await compactClaim(tag, validatorOwner, 3n))
    expect((await usdcOf(recipient)) - before).toBe(1_000n)
    // A key that is not an owner stays refused.
    await expect(claim(await compactClaim(tag, strangerKey, 4n))).rejects.toThrow('InvalidSignature')
  })

  test('assigned but never enabled on the emissary: refused', async () => {
    await assign(tag, addresses.emissary)
    await expect(claim(await compactClaim(tag, validatorOwner, 5n))).rejects.toThrow('InvalidSignature')
  })

  test("the wallet owner's ERC-1271 signature still works without an emissary", async () => {
    const before = await usdcOf(recipient)
    await claim(await compactClaim(tag, walletOwnerKey, 6n))
    expect((await usdcOf(recipient)) - before).toBe(1_000n)
  })

  test('a batch claim needs the same emissary on every lock', async () => {
    await enable(await signEnable(tag))
    await assign(tag, addresses.emissary)
    const batch = async (nonce: bigint) => {
      const expires = (await now()) + 600n
      const commitments = [
        { lockTag: tag, token: usdc as Address, amount: 10n },
        { lockTag: tag2, token: usdc as Address, amount: 20n },
      ]
      const message = {
        arbiter: arbiter.account.address,
        sponsor: sponsor as Address,
        nonce,
        expires,
        commitments,
      }
      const typed = {
        domain: compactDomain(),
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
        arbiter,
        arbiter.writeContract({
          address: addresses.compact,
          abi: compactAbi,
          functionName: 'batchClaim',
          args: [payload],
        }),
      )
    }
    // tag2 has no emissary: the locks disagree.
    await expect(batch(7n)).rejects.toThrow('InvalidSignature')
    await assign(tag2, otherEmissary)
    await expect(batch(8n)).rejects.toThrow('InvalidSignature')
    // Both locks with our emissary: accepted (it is asked about the first lock's tag).
    await schedule(tag2)
    await chain.client.increaseTime({ seconds: 15 })
    await assign(tag2, addresses.emissary)
    const before = await usdcOf(recipient)
    await batch(9n)
    expect((await usdcOf(recipient)) - before).toBe(30n)
  })
})
