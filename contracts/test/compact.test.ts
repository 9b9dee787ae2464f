import {
  type Address,
  encodeFunctionData,
  type Hex,
  hashStruct,
  keccak256,
  type TypedDataDomain,
  toHex,
  zeroAddress,
} from 'viem'
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'vitest'
import { LOCK_TYPE, MULTICHAIN_COMPACT_TYPES } from '../../spec'
import { addresses } from '../addresses'
import { Allocator, DevnetERC20, ReentrantToken, TestERC1271Wallet, TheCompact } from '../generated/artifacts'
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

const compact = addresses.compact
// The allocator's errors bubble up through the Compact: decode them too.
const abi = [...TheCompact.abi, ...Allocator.abi.filter((item) => item.type === 'error')]
const usdc = '0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48' as const
const badToken = '0x00000000000000000000000000000000bad70ce1' as const
const wallet1271 = '0x0000000000000000000000000000000000127100' as const

/** The test witness: its type string is what follows `Mandate(` (without the closing paren). */
const mandateTypes = {
  Mandate: [
    { name: 'recipient', type: 'address' },
    { name: 'fillDeadline', type: 'uint256' },
    { name: 'tokenOut', type: 'Token[]' },
  ],
  Token: [
    { name: 'token', type: 'address' },
    { name: 'amount', type: 'uint256' },
  ],
} as const
const witnessTypestring =
  'address recipient,uint256 fillDeadline,Token[] tokenOut)Token(address token,uint256 amount'
const lockType = LOCK_TYPE
const batchCompactTypes = {
  BatchCompact: [
    { name: 'arbiter', type: 'address' },
    { name: 'sponsor', type: 'address' },
    { name: 'nonce', type: 'uint256' },
    { name: 'expires', type: 'uint256' },
    { name: 'commitments', type: 'Lock[]' },
    { name: 'mandate', type: 'Mandate' },
  ],
  Lock: lockType,
  ...mandateTypes,
} as const
/** The service's MultichainCompact and Element (spec/eip712Types.ts) over the test witness. */
const multichainTypes = {
  MultichainCompact: MULTICHAIN_COMPACT_TYPES.MultichainCompact,
  Element: MULTICHAIN_COMPACT_TYPES.Element,
  Lock: lockType,
  ...mandateTypes,
} as const

let chain: TestChain
let deployer: TestWallet
let sponsor: TestWallet
let arbiter: TestWallet
let stranger: TestWallet
const allocatorKey = anvilAccounts[3]! // signs for the allocator; no wallet of it sends anything
const recipient = anvilAccounts[4]!.address
let allocatorId: bigint
let tag: Hex // Multichain scope, reset period 2 (1 min)
let chainTag: Hex // ChainSpecific scope, reset period 2
let nativeId: bigint
let usdcId: bigint
let snapshot: Hex

const domain = (chainId: number): TypedDataDomain => ({
  name: 'The Compact',
  version: '1',
  chainId,
  verifyingContract: compact,
})

async function now(): Promise<bigint> {
  return (await chain.client.getBlock()).timestamp
}

async function balance(owner: Address, id: bigint): Promise<bigint> {
  return chain.client.readContract({ address: compact, abi, functionName: 'balanceOf', args: [owner, id] })
}

async function tokenBalance(token: Address, owner: Address): Promise<bigint> {
  return chain.client.readContract({
    address: token,
    abi: DevnetERC20.abi,
    functionName: 'balanceOf',
    args: [owner],
  })
}

function mandate(amount: bigint) {
  return { recipient, fillDeadline: 2_000_000_000n, tokenOut: [{ token: usdc, amount }] }
}

/** The allocator's signature: EIP-712 digest of the claim hash on this chain's Compact domain. */
async function allocatorSign(types: typeof batchCompactTypes | typeof multichainTypes, message: object) {
  const primaryType = 'BatchCompact' in types ? 'BatchCompact' : 'MultichainCompact'
  // biome-ignore lint/suspicious/noExplicitAny: the message shape follows `types`
  return allocatorKey.signTypedData({ domain: domain(chain.chain.id), types, primaryType, message } as any)
}

type BatchArgs = { nonce: bigint; expires: bigint; amounts: [bigint, bigint]; signer?: TestWallet }

/** A BatchCompact over (native, usdc) signed by the sponsor with viem, and the allocator's data. */
async function signBatch({ nonce, expires, amounts, signer }: BatchArgs) {
  const m = mandate(amounts[1])
  const message = {
    arbiter: arbiter.account.address,
    sponsor: sponsor.account.address,
    nonce,
    expires,
    commitments: [
      { lockTag: tag, token: zeroAddress, amount: amounts[0] },
      { lockTag: tag, token: usdc, amount: amounts[1] },
    ],
    mandate: m,
  }
  const sponsorSignature = await (signer ?? sponsor).signTypedData({
    domain: domain(chain.chain.id),
    types: batchCompactTypes,
    primaryType: 'BatchCompact',
    message,
  })
  const allocatorData = await allocatorSign(batchCompactTypes, message)
  const witness = hashStruct({ types: mandateTypes, primaryType: 'Mandate', data: m })
  return { message, sponsorSignature, allocatorData, witness }
}

function batchPayload(
  signed: Awaited<ReturnType<typeof signBatch>>,
  args: BatchArgs,
  portions: [bigint, bigint] = args.amounts,
) {
  return {
    allocatorData: signed.allocatorData,
    sponsorSignature: signed.sponsorSignature,
    sponsor: sponsor.account.address,
    nonce: args.nonce,
    expires: args.expires,
    witness: signed.witness,
    witnessTypestring,
    claims: [
      // Native: withdrawn to the recipient (claimant lockTag 0).
      {
        id: nativeId,
        allocatedAmount: args.amounts[0],
        portions: [{ claimant: claimantOf('0x0', recipient), amount: portions[0] }],
      },
      // USDC: the lock moves to the recipient (same lockTag).
      {
        id: usdcId,
        allocatedAmount: args.amounts[1],
        portions: [{ claimant: claimantOf(tag, recipient), amount: portions[1] }],
      },
    ],
  } as const
}

async function expectRevert(promise: Promise<unknown>, error: string) {
  await expect(promise).rejects.toThrow(error)
}

beforeAll(async () => {
  chain = await startTestChain({ chainId: 10 })
  ;[deployer, sponsor, arbiter] = chain.wallets as [TestWallet, TestWallet, TestWallet]
  stranger = chain.wallets[8]!
  ;({ allocatorId } = await placeCompact(chain, allocatorKey.address))
  tag = lockTagOf(allocatorId, 0, 2)
  chainTag = lockTagOf(allocatorId, 1, 2)
  nativeId = lockIdOf(tag, zeroAddress)
  usdcId = lockIdOf(tag, usdc)
  await placeToken(chain, usdc, { name: 'USD Coin', symbol: 'USDC', decimals: 6 }, deployer)
  await mintAndApprove({
    token: usdc,
    minter: deployer,
    owner: sponsor,
    amount: 1_000_000_000n,
    spender: compact,
    allowance: 2n ** 256n - 1n,
  })
  // The sponsor's starting locks: 10 ETH and 500 USDC under the allocator's multichain tag.
  await send(
    sponsor,
    sponsor.writeContract({
      address: compact,
      abi,
      functionName: 'depositNative',
      args: [tag, zeroAddress],
      value: 10n ** 19n,
    }),
  )
  await send(
    sponsor,
    sponsor.writeContract({
      address: compact,
      abi,
      functionName: 'depositERC20',
      args: [usdc, tag, 500_000_000n, zeroAddress],
    }),
  )
})

afterAll(async () => {
  await chain?.stop()
})

beforeEach(async () => {
  if (snapshot) await chain.client.revert({ id: snapshot })
  snapshot = await chain.client.snapshot()
})

describe('lock ids', () => {
  test('allocator id, lock tag and id are laid out as The Compact v1 does', async () => {
    // 32 leading zero nibbles: compact flag 15.
    expect(allocatorId).toBe((15n << 88n) | (BigInt(addresses.allocator) & ((1n << 88n) - 1n)))
    expect(nativeId >> 248n).not.toBe(0n)
    const details = await chain.client.readContract({
      address: compact,
      abi,
      functionName: 'getLockDetails',
      args: [lockIdOf(chainTag, usdc)],
    })
    expect(details).toEqual([usdc, addresses.allocator, 2, 1, chainTag])
    expect(await chain.client.readContract({ address: compact, abi, functionName: 'name' })).toBe(
      'The Compact',
    )
  })

  test('compact flag follows the leading zero nibbles', async () => {
    const id = (a: Address) =>
      chain.client.readContract({ address: compact, abi, functionName: 'toAllocatorId', args: [a] })
    expect((await id('0x1000000000000000000000000000000000000001')) >> 88n).toBe(0n)
    expect((await id('0x0000100000000000000000000000000000000001')) >> 88n).toBe(1n)
    expect((await id('0x0000000000000000010000000000000000000001')) >> 88n).toBe(14n)
    expect((await id('0x0000000000000000001000000000000000000001')) >> 88n).toBe(15n)
  })

  test('a lock tag of an unregistered allocator cannot be deposited', async () => {
    const other = lockTagOf(12345n, 0, 0)
    await expectRevert(
      sponsor.writeContract({
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
    expect(await balance(sponsor.account.address, nativeId)).toBe(10n ** 19n)
    expect(await balance(sponsor.account.address, usdcId)).toBe(500_000_000n)
    const chainUsdc = lockIdOf(chainTag, usdc)
    await send(
      sponsor,
      sponsor.writeContract({
        address: compact,
        abi,
        functionName: 'batchDeposit',
        args: [
          [
            [lockIdOf(chainTag, zeroAddress), 5n],
            [chainUsdc, 7n],
          ],
          recipient,
        ],
        value: 5n,
      }),
    )
    expect(await balance(recipient, lockIdOf(chainTag, zeroAddress))).toBe(5n)
    expect(await balance(recipient, chainUsdc)).toBe(7n)
    await expectRevert(
      sponsor.writeContract({
        address: compact,
        abi,
        functionName: 'batchDeposit',
        args: [[[nativeId, 5n]], recipient],
        value: 4n,
      }),
      'InconsistentNativeValue',
    )
  })

  test('transfer, transferFrom with allowance and operator; over-transfer reverts', async () => {
    await send(
      sponsor,
      sponsor.writeContract({
        address: compact,
        abi,
        functionName: 'transfer',
        args: [recipient, usdcId, 10n],
      }),
    )
    expect(await balance(recipient, usdcId)).toBe(10n)
    await expectRevert(
      stranger.writeContract({
        address: compact,
        abi,
        functionName: 'transferFrom',
        args: [sponsor.account.address, recipient, usdcId, 1n],
      }),
      'InsufficientAllowance',
    )
    await send(
      sponsor,
      sponsor.writeContract({
        address: compact,
        abi,
        functionName: 'approve',
        args: [stranger.account.address, usdcId, 3n],
      }),
    )
    await send(
      stranger,
      stranger.writeContract({
        address: compact,
        abi,
        functionName: 'transferFrom',
        args: [sponsor.account.address, recipient, usdcId, 3n],
      }),
    )
    expect(
      await chain.client.readContract({
        address: compact,
        abi,
        functionName: 'allowance',
        args: [sponsor.account.address, stranger.account.address, usdcId],
      }),
    ).toBe(0n)
    await send(
      sponsor,
      sponsor.writeContract({
        address: compact,
        abi,
        functionName: 'setOperator',
        args: [stranger.account.address, true],
      }),
    )
    await send(
      stranger,
      stranger.writeContract({
        address: compact,
        abi,
        functionName: 'transferFrom',
        args: [sponsor.account.address, recipient, usdcId, 100n],
      }),
    )
    expect(await balance(recipient, usdcId)).toBe(113n)
    await expectRevert(
      sponsor.writeContract({
        address: compact,
        abi,
        functionName: 'transfer',
        args: [recipient, usdcId, 10n ** 12n],
      }),
      'InsufficientBalance',
    )
  })
})

describe('allocatedTransfer', () => {
  async function signTransfer(nonce: bigint, expires: bigint, amount: bigint, key = allocatorKey) {
    // The claim hash is the Compact struct with arbiter = sponsor = caller and the summed amount.
    const message = {
      arbiter: sponsor.account.address,
      sponsor: sponsor.account.address,
      nonce,
      expires,
      lockTag: tag,
      token: usdc,
      amount,
    }
    return key.signTypedData({
      domain: domain(chain.chain.id),
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
    sponsor.writeContract({
      address: compact,
      abi,
      functionName: 'allocatedTransfer',
      args: [
        {
          allocatorData,
          nonce,
          expires,
          id: usdcId,
          recipients: [
            { claimant: claimantOf(tag, recipient), amount: moved },
            { claimant: claimantOf('0x0', recipient), amount: withdrawn },
          ],
        },
      ],
    })

  test('moves the lock and withdraws the token as the allocator signed; the nonce is single-use', async () => {
    const expires = (await now()) + 600n
    const data = await signTransfer(1n, expires, 30n)
    await send(sponsor, transfer(data, 1n, expires, 10n, 20n))
    expect(await balance(recipient, usdcId)).toBe(10n)
    expect(await tokenBalance(usdc, recipient)).toBe(20n)
    expect(
      await chain.client.readContract({
        address: compact,
        abi,
        functionName: 'hasConsumedAllocatorNonce',
        args: [1n, addresses.allocator],
      }),
    ).toBe(true)
    await expectRevert(transfer(data, 1n, expires, 10n, 20n), 'InvalidNonce')
  })

  test('reverts on a bad allocator signature, an expired transfer and an over-transfer', async () => {
    const expires = (await now()) + 600n
    await expectRevert(
      transfer(await signTransfer(2n, expires, 30n, anvilAccounts[9]!), 2n, expires, 10n, 20n),
      'InvalidAllocatorSignature',
    )
    await expectRevert(
      transfer(await signTransfer(2n, expires, 31n), 2n, expires, 10n, 20n),
      'InvalidAllocatorSignature',
    )
    const past = (await now()) - 1n
    await expectRevert(transfer(await signTransfer(2n, past, 30n), 2n, past, 10n, 20n), 'Expired')
    const huge = 10n ** 12n
    await expectRevert(
      transfer(await signTransfer(3n, expires, huge + 1n), 3n, expires, huge, 1n),
      'InsufficientBalance',
    )
  })
})

describe('batchClaim', () => {
  test('pays the claimants when the sponsor (viem signTypedData) and allocator signed; no replay', async () => {
    const args: BatchArgs = { nonce: 10n, expires: (await now()) + 600n, amounts: [10n ** 18n, 100_000_000n] }
    const signed = await signBatch(args)
    const before = await chain.client.getBalance({ address: recipient })
    const payload = batchPayload(signed, args, [10n ** 18n, 60_000_000n])
    const claimHash = await arbiter.simulateContract({
      address: compact,
      abi,
      functionName: 'batchClaim',
      args: [payload],
    })
    expect(claimHash.result).toBe(
      hashStruct({ types: batchCompactTypes, primaryType: 'BatchCompact', data: signed.message }),
    )
    await send(arbiter, arbiter.writeContract(claimHash.request))
    expect((await chain.client.getBalance({ address: recipient })) - before).toBe(10n ** 18n)
    expect(await balance(recipient, usdcId)).toBe(60_000_000n)
    expect(await balance(sponsor.account.address, usdcId)).toBe(440_000_000n)
    await expectRevert(
      arbiter.writeContract({ address: compact, abi, functionName: 'batchClaim', args: [payload] }),
      'InvalidNonce',
    )
  })

  test('reverts for a wrong arbiter, a bad signature, expiry, over-claim and bad allocator data', async () => {
    const args: BatchArgs = { nonce: 11n, expires: (await now()) + 600n, amounts: [1n, 2n] }
    const signed = await signBatch(args)
    const payload = batchPayload(signed, args)
    // The arbiter is msg.sender: anyone else computes another claim hash.
    await expectRevert(
      stranger.writeContract({ address: compact, abi, functionName: 'batchClaim', args: [payload] }),
      'InvalidSignature',
    )
    const forged = await signBatch({ ...args, signer: stranger })
    await expectRevert(
      arbiter.writeContract({
        address: compact,
        abi,
        functionName: 'batchClaim',
        args: [batchPayload(forged, args)],
      }),
      'InvalidSignature',
    )
    await expectRevert(
      arbiter.writeContract({
        address: compact,
        abi,
        functionName: 'batchClaim',
        args: [batchPayload(signed, args, [1n, 3n])],
      }),
      'AllocatedAmountExceeded',
    )
    await expectRevert(
      arbiter.writeContract({
        address: compact,
        abi,
        functionName: 'batchClaim',
        args: [{ ...payload, allocatorData: forged.sponsorSignature }],
      }),
      'InvalidAllocatorSignature',
    )
    const expiredArgs: BatchArgs = { nonce: 12n, expires: (await now()) - 1n, amounts: [1n, 2n] }
    await expectRevert(
      arbiter.writeContract({
        address: compact,
        abi,
        functionName: 'batchClaim',
        args: [batchPayload(await signBatch(expiredArgs), expiredArgs)],
      }),
      'Expired',
    )
    // More than the sponsor holds.
    const bigArgs: BatchArgs = { nonce: 13n, expires: (await now()) + 600n, amounts: [10n ** 20n, 2n] }
    await expectRevert(
      arbiter.writeContract({
        address: compact,
        abi,
        functionName: 'batchClaim',
        args: [batchPayload(await signBatch(bigArgs), bigArgs)],
      }),
      'InsufficientBalance',
    )
  })

  test('a registered compact needs no sponsor signature', async () => {
    const args: BatchArgs = { nonce: 14n, expires: (await now()) + 600n, amounts: [1n, 2n] }
    const signed = await signBatch(args)
    const payload = { ...batchPayload(signed, args), sponsorSignature: '0x' as Hex }
    await expectRevert(
      arbiter.writeContract({ address: compact, abi, functionName: 'batchClaim', args: [payload] }),
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
      sponsor,
      sponsor.writeContract({
        address: compact,
        abi,
        functionName: 'register',
        args: [claimHash, batchTypehash],
      }),
    )
    await send(
      arbiter,
      arbiter.writeContract({ address: compact, abi, functionName: 'batchClaim', args: [payload] }),
    )
    expect(await balance(recipient, usdcId)).toBe(2n)
  })

  test('every id of a batch must share one allocator', async () => {
    // An EOA registers itself as a second allocator; a batch mixing both allocators is refused.
    const other = chain.wallets[5]!
    await send(
      other,
      other.writeContract({
        address: compact,
        abi,
        functionName: '__registerAllocator',
        args: [other.account.address, '0x'],
      }),
    )
    const otherId = await chain.client.readContract({
      address: compact,
      abi,
      functionName: 'toAllocatorId',
      args: [other.account.address],
    })
    const otherTag = lockTagOf(otherId, 0, 2)
    await send(
      sponsor,
      sponsor.writeContract({
        address: compact,
        abi,
        functionName: 'depositNative',
        args: [otherTag, zeroAddress],
        value: 5n,
      }),
    )
    const args: BatchArgs = { nonce: 15n, expires: (await now()) + 600n, amounts: [1n, 2n] }
    const payload = batchPayload(await signBatch(args), args)
    const mixed = {
      ...payload,
      claims: [{ ...payload.claims[0], id: lockIdOf(otherTag, zeroAddress) }, payload.claims[1]],
    }
    await expectRevert(
      arbiter.writeContract({ address: compact, abi, functionName: 'batchClaim', args: [mixed] }),
      'InconsistentAllocators',
    )
    // The other allocator burns a nonce directly.
    await send(other, other.writeContract({ address: compact, abi, functionName: 'consume', args: [[77n]] }))
    expect(
      await chain.client.readContract({
        address: compact,
        abi,
        functionName: 'hasConsumedAllocatorNonce',
        args: [77n, other.account.address],
      }),
    ).toBe(true)
    await expectRevert(
      stranger.writeContract({ address: compact, abi, functionName: 'consume', args: [[1n]] }),
      'UnregisteredAllocator',
    )
  })

  test('an ERC-1271 contract sponsor signs through its owner', async () => {
    const owner = anvilAccounts[6]!
    await placeContract(chain.client, wallet1271, TestERC1271Wallet)
    await send(
      deployer,
      deployer.writeContract({
        address: wallet1271,
        abi: TestERC1271Wallet.abi,
        functionName: 'initialize',
        args: [owner.address],
      }),
    )
    await send(
      deployer,
      deployer.writeContract({
        address: compact,
        abi,
        functionName: 'depositNative',
        args: [tag, wallet1271],
        value: 100n,
      }),
    )
    const expires = (await now()) + 600n
    const m = mandate(0n)
    const message = {
      arbiter: arbiter.account.address,
      sponsor: wallet1271,
      nonce: 16n,
      expires,
      commitments: [{ lockTag: tag, token: zeroAddress, amount: 100n }],
      mandate: m,
    }
    const typed = {
      domain: domain(chain.chain.id),
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
          id: nativeId,
          allocatedAmount: 100n,
          portions: [{ claimant: claimantOf(tag, recipient), amount: 100n }],
        },
      ],
    })
    const allocatorData = await allocatorKey.signTypedData(typed)
    const bad = await anvilAccounts[7]!.signTypedData(typed)
    await expectRevert(
      arbiter.writeContract({
        address: compact,
        abi,
        functionName: 'batchClaim',
        args: [{ ...payload(bad), allocatorData }],
      }),
      'InvalidSignature',
    )
    const good = await owner.signTypedData(typed)
    await send(
      arbiter,
      arbiter.writeContract({
        address: compact,
        abi,
        functionName: 'batchClaim',
        args: [{ ...payload(good), allocatorData }],
      }),
    )
    expect(await balance(recipient, nativeId)).toBe(100n)
  })
})

describe('multichain claims', () => {
  // Two elements: chain 10 (this Anvil) and chain 8453 (elsewhere); the same sponsor signature
  // is claimed on the notarized chain (elements[0]) and, exogenously, on any other.
  async function signMultichain(
    nonce: bigint,
    expires: bigint,
    order: 'here-first' | 'here-second',
    verifyingContract?: `0x${string}`,
  ) {
    const here = {
      arbiter: arbiter.account.address,
      chainId: BigInt(chain.chain.id),
      commitments: [{ lockTag: tag, token: usdc, amount: 50n }],
      mandate: mandate(50n),
    }
    const there = {
      arbiter: stranger.account.address,
      chainId: 8453n,
      commitments: [{ lockTag: tag, token: zeroAddress, amount: 9n }],
      mandate: mandate(9n),
    }
    const elements = order === 'here-first' ? [here, there] : [there, here]
    const message = { sponsor: sponsor.account.address, nonce, expires, elements }
    const notarizedChainId = Number(elements[0]!.chainId)
    const sponsorSignature = await sponsor.signTypedData({
      domain: verifyingContract
        ? { ...domain(notarizedChainId), verifyingContract }
        : domain(notarizedChainId),
      types: multichainTypes,
      primaryType: 'MultichainCompact',
      message,
    })
    const allocatorData = await allocatorSign(multichainTypes, message)
    const thereHash = hashStruct({ types: multichainTypes, primaryType: 'Element', data: there })
    const claimHash = hashStruct({ types: multichainTypes, primaryType: 'MultichainCompact', data: message })
    const common = {
      allocatorData,
      sponsorSignature,
      sponsor: sponsor.account.address,
      nonce,
      expires,
      witness: hashStruct({ types: mandateTypes, primaryType: 'Mandate', data: here.mandate }),
      witnessTypestring,
      additionalChains: [thereHash],
      claims: [
        {
          id: usdcId,
          allocatedAmount: 50n,
          portions: [{ claimant: claimantOf('0x0', recipient), amount: 50n }],
        },
      ],
    }
    return { common, claimHash, notarizedChainId }
  }

  test('batchMultichainClaim on the notarized chain: claim hash over all elements, in signed order', async () => {
    const { common, claimHash } = await signMultichain(20n, (await now()) + 600n, 'here-first')
    const { result, request } = await arbiter.simulateContract({
      address: compact,
      abi,
      functionName: 'batchMultichainClaim',
      args: [common],
    })
    expect(result).toBe(claimHash)
    await send(arbiter, arbiter.writeContract(request))
    expect(await tokenBalance(usdc, recipient)).toBe(50n)
    await expectRevert(
      arbiter.writeContract({ address: compact, abi, functionName: 'batchMultichainClaim', args: [common] }),
      'InvalidNonce',
    )
  })

  test('exogenousBatchClaim on another chain: element inserted after additionalChains[chainIndex]', async () => {
    const { common, claimHash, notarizedChainId } = await signMultichain(
      21n,
      (await now()) + 600n,
      'here-second',
    )
    const args = { ...common, chainIndex: 0n, notarizedChainId: BigInt(notarizedChainId) }
    await expectRevert(
      arbiter.writeContract({
        address: compact,
        abi,
        functionName: 'exogenousBatchClaim',
        args: [{ ...args, notarizedChainId: 1n }],
      }),
      'InvalidSignature',
    )
    await expectRevert(
      arbiter.writeContract({
        address: compact,
        abi,
        functionName: 'exogenousBatchClaim',
        args: [{ ...args, chainIndex: 1n }],
      }),
      'InvalidChainIndex',
    )
    const { result, request } = await arbiter.simulateContract({
      address: compact,
      abi,
      functionName: 'exogenousBatchClaim',
      args: [args],
    })
    expect(result).toBe(claimHash)
    await send(arbiter, arbiter.writeContract(request))
    expect(await tokenBalance(usdc, recipient)).toBe(50n)
    // A notarized-chain claim of the same signature computes another hash (wrong order), so it fails.
    await expectRevert(
      arbiter.writeContract({ address: compact, abi, functionName: 'batchMultichainClaim', args: [common] }),
      'InvalidSignature',
    )
  })

  test('a compact signed for the legacy Compact address (as the SDK 1.x signs) is accepted, any other address is not', async () => {
    const legacy = await signMultichain(23n, (await now()) + 600n, 'here-first', addresses.compactLegacy)
    await send(
      arbiter,
      arbiter.writeContract({
        address: compact,
        abi,
        functionName: 'batchMultichainClaim',
        args: [legacy.common],
      }),
    )
    expect(await tokenBalance(usdc, recipient)).toBe(50n)
    const other = await signMultichain(24n, (await now()) + 600n, 'here-first', `0x${'12'.repeat(20)}`)
    await expectRevert(
      arbiter.writeContract({
        address: compact,
        abi,
        functionName: 'batchMultichainClaim',
        args: [other.common],
      }),
      'InvalidSignature',
    )
  })

  test('chain-specific locks cannot be claimed multichain', async () => {
    const { common } = await signMultichain(22n, (await now()) + 600n, 'here-first')
    const scoped = { ...common, claims: [{ ...common.claims[0]!, id: lockIdOf(chainTag, usdc) }] }
    await expectRevert(
      arbiter.writeContract({ address: compact, abi, functionName: 'batchMultichainClaim', args: [scoped] }),
      'InvalidScope',
    )
  })
})

describe('single-lock claims', () => {
  const compactTypes = {
    Compact: [
      { name: 'arbiter', type: 'address' },
      { name: 'sponsor', type: 'address' },
      { name: 'nonce', type: 'uint256' },
      { name: 'expires', type: 'uint256' },
      { name: 'lockTag', type: 'bytes12' },
      { name: 'token', type: 'address' },
      { name: 'amount', type: 'uint256' },
      { name: 'mandate', type: 'Mandate' },
    ],
    ...mandateTypes,
  } as const

  test('claim: the Compact type with a Mandate witness', async () => {
    const expires = (await now()) + 600n
    const m = mandate(30n)
    const message = {
      arbiter: arbiter.account.address,
      sponsor: sponsor.account.address,
      nonce: 30n,
      expires,
      lockTag: tag,
      token: usdc,
      amount: 30n,
      mandate: m,
    }
    const typed = {
      domain: domain(chain.chain.id),
      types: compactTypes,
      primaryType: 'Compact',
      message,
    } as const
    const payload = {
      allocatorData: await allocatorKey.signTypedData(typed),
      sponsorSignature: await sponsor.signTypedData(typed),
      sponsor: sponsor.account.address,
      nonce: 30n,
      expires,
      witness: hashStruct({ types: mandateTypes, primaryType: 'Mandate', data: m }),
      witnessTypestring,
      id: usdcId,
      allocatedAmount: 30n,
      claimants: [{ claimant: claimantOf('0x0', recipient), amount: 30n }],
    }
    const { result, request } = await arbiter.simulateContract({
      address: compact,
      abi,
      functionName: 'claim',
      args: [payload],
    })
    expect(result).toBe(hashStruct({ types: compactTypes, primaryType: 'Compact', data: message }))
    await send(arbiter, arbiter.writeContract(request))
    expect(await tokenBalance(usdc, recipient)).toBe(30n)
    await expectRevert(
      arbiter.writeContract({ address: compact, abi, functionName: 'claim', args: [payload] }),
      'InvalidNonce',
    )
  })

  test('multichainClaim and exogenousClaim: one lock per element', async () => {
    const expires = (await now()) + 600n
    const here = {
      arbiter: arbiter.account.address,
      chainId: BigInt(chain.chain.id),
      commitments: [{ lockTag: tag, token: usdc, amount: 7n }],
      mandate: mandate(7n),
    }
    const there = {
      arbiter: arbiter.account.address,
      chainId: 1n,
      commitments: [{ lockTag: tag, token: usdc, amount: 8n }],
      mandate: mandate(8n),
    }
    const sign = async (nonce: bigint, elements: (typeof here)[]) => {
      const message = { sponsor: sponsor.account.address, nonce, expires, elements }
      return {
        sponsorSignature: await sponsor.signTypedData({
          domain: domain(Number(elements[0]!.chainId)),
          types: multichainTypes,
          primaryType: 'MultichainCompact',
          message,
        }),
        allocatorData: await allocatorSign(multichainTypes, message),
        claimHash: hashStruct({ types: multichainTypes, primaryType: 'MultichainCompact', data: message }),
      }
    }
    const base = {
      sponsor: sponsor.account.address,
      expires,
      witness: hashStruct({ types: mandateTypes, primaryType: 'Mandate', data: here.mandate }),
      witnessTypestring,
      additionalChains: [hashStruct({ types: multichainTypes, primaryType: 'Element', data: there })],
      id: usdcId,
      allocatedAmount: 7n,
      claimants: [{ claimant: claimantOf(tag, recipient), amount: 7n }],
    }
    const first = await sign(31n, [here, there])
    const notarized = {
      ...base,
      nonce: 31n,
      sponsorSignature: first.sponsorSignature,
      allocatorData: first.allocatorData,
    }
    const a = await arbiter.simulateContract({
      address: compact,
      abi,
      functionName: 'multichainClaim',
      args: [notarized],
    })
    expect(a.result).toBe(first.claimHash)
    await send(arbiter, arbiter.writeContract(a.request))
    const second = await sign(32n, [there, here])
    const exogenous = {
      ...base,
      nonce: 32n,
      sponsorSignature: second.sponsorSignature,
      allocatorData: second.allocatorData,
      chainIndex: 0n,
      notarizedChainId: 1n,
    }
    const b = await arbiter.simulateContract({
      address: compact,
      abi,
      functionName: 'exogenousClaim',
      args: [exogenous],
    })
    expect(b.result).toBe(second.claimHash)
    await send(arbiter, arbiter.writeContract(b.request))
    expect(await balance(recipient, usdcId)).toBe(14n)
  })
})

describe('forced withdrawal', () => {
  test('only after the reset period; disable stops it', async () => {
    await expectRevert(
      sponsor.writeContract({
        address: compact,
        abi,
        functionName: 'forcedWithdrawal',
        args: [usdcId, recipient, 5n],
      }),
      'PrematureWithdrawal',
    )
    await send(
      sponsor,
      sponsor.writeContract({
        address: compact,
        abi,
        functionName: 'enableForcedWithdrawal',
        args: [usdcId],
      }),
    )
    await expectRevert(
      sponsor.writeContract({
        address: compact,
        abi,
        functionName: 'forcedWithdrawal',
        args: [usdcId, recipient, 5n],
      }),
      'PrematureWithdrawal',
    )
    await chain.client.increaseTime({ seconds: 61 })
    await chain.client.mine({ blocks: 1 })
    await send(
      sponsor,
      sponsor.writeContract({
        address: compact,
        abi,
        functionName: 'forcedWithdrawal',
        args: [usdcId, recipient, 5n],
      }),
    )
    expect(await tokenBalance(usdc, recipient)).toBe(5n)
    await send(
      sponsor,
      sponsor.writeContract({
        address: compact,
        abi,
        functionName: 'disableForcedWithdrawal',
        args: [usdcId],
      }),
    )
    await expectRevert(
      sponsor.writeContract({
        address: compact,
        abi,
        functionName: 'forcedWithdrawal',
        args: [usdcId, recipient, 5n],
      }),
      'PrematureWithdrawal',
    )
  })
})

describe('reentrancy', () => {
  test('a token calling back into the Compact during a deposit is refused', async () => {
    await placeContract(chain.client, badToken, ReentrantToken)
    const bad = { address: badToken, abi: ReentrantToken.abi } as const
    await send(
      sponsor,
      sponsor.writeContract({ ...bad, functionName: 'mint', args: [sponsor.account.address, 1000n] }),
    )
    await send(sponsor, sponsor.writeContract({ ...bad, functionName: 'approve', args: [compact, 1000n] }))
    // During the deposit's transferFrom, the token calls a guarded Compact function.
    const guarded = encodeFunctionData({
      abi,
      functionName: 'forcedWithdrawal',
      args: [usdcId, badToken, 1n],
    })
    await send(sponsor, sponsor.writeContract({ ...bad, functionName: 'arm', args: [compact, guarded] }))
    await expectRevert(
      sponsor.writeContract({
        address: compact,
        abi,
        functionName: 'depositERC20',
        args: [badToken, tag, 100n, zeroAddress],
      }),
      'Reentrancy',
    )
    // Disarmed, the same deposit works.
    await send(sponsor, sponsor.writeContract({ ...bad, functionName: 'arm', args: [zeroAddress, '0x'] }))
    await send(
      sponsor,
      sponsor.writeContract({
        address: compact,
        abi,
        functionName: 'depositERC20',
        args: [badToken, tag, 100n, zeroAddress],
      }),
    )
    expect(await balance(sponsor.account.address, lockIdOf(tag, badToken))).toBe(100n)
  })
})
