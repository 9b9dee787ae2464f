/**
 * The Compact on one Anvil (chain 10), as the compact*.test.ts files use it: TheCompact and the
 * Allocator placed and registered, USDC placed, and the sponsor's starting locks (10 ETH and
 * 500 USDC under the allocator's multichain tag). Each test starts from that state.
 *
 * @example
 * const fx = useCompactChain()
 * test('...', async () => {
 *   expect(await fx.balance(fx.sponsor.account.address, fx.usdcId)).toBe(500_000_000n)
 * })
 */
import { type Address, type Hex, hashStruct, type TypedDataDomain, zeroAddress } from 'viem'
import { expect } from 'vitest'
import { LOCK_TYPE, MULTICHAIN_COMPACT_TYPES } from '../../../spec'
import { addresses } from '../../addresses'
import { Allocator, DevnetERC20, TheCompact } from '../../generated/artifacts'
import {
  anvilAccounts,
  claimantOf,
  lockIdOf,
  lockTagOf,
  mintAndApprove,
  placeCompact,
  placeToken,
  send,
  startTestChain,
  type TestChain,
  type TestWallet,
} from '../helpers'
import { useChain } from './useChain'

export const compact = addresses.compact
// The allocator's errors bubble up through the Compact: decode them too.
export const abi = [...TheCompact.abi, ...Allocator.abi.filter((item) => item.type === 'error')]
export const usdc = '0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48' as const
export const allocatorKey = anvilAccounts[3]! // signs for the allocator; no wallet of it sends anything
export const recipient = anvilAccounts[4]!.address

/** The test witness: its type string is what follows `Mandate(` (without the closing paren). */
export const mandateTypes = {
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
export const witnessTypestring =
  'address recipient,uint256 fillDeadline,Token[] tokenOut)Token(address token,uint256 amount'
const lockType = LOCK_TYPE
export const batchCompactTypes = {
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
export const multichainTypes = {
  MultichainCompact: MULTICHAIN_COMPACT_TYPES.MultichainCompact,
  Element: MULTICHAIN_COMPACT_TYPES.Element,
  Lock: lockType,
  ...mandateTypes,
} as const

/** The Compact's EIP-712 domain on `chainId`. */
export const domain = (chainId: number): TypedDataDomain => ({
  name: 'The Compact',
  version: '1',
  chainId,
  verifyingContract: compact,
})

/** The test witness paying `amount` of USDC to the recipient. */
export function mandate(amount: bigint) {
  return { recipient, fillDeadline: 2_000_000_000n, tokenOut: [{ token: usdc, amount }] }
}

/** Expects `promise` to reject with a message containing `error` (a custom error's name). */
export async function expectRevert(promise: Promise<unknown>, error: string) {
  await expect(promise).rejects.toThrow(error)
}

/** What {@link CompactChain.signBatch} signs: a BatchCompact over (native, usdc). */
export type BatchArgs = { nonce: bigint; expires: bigint; amounts: [bigint, bigint]; signer?: TestWallet }

/** The chain, its wallets and lock ids, and the reads and signatures the tests share. */
export class CompactChain {
  chain!: TestChain
  deployer!: TestWallet
  sponsor!: TestWallet
  arbiter!: TestWallet
  stranger!: TestWallet
  allocatorId!: bigint
  tag!: Hex // Multichain scope, reset period 2 (1 min)
  chainTag!: Hex // ChainSpecific scope, reset period 2
  nativeId!: bigint
  usdcId!: bigint

  /** Starts the Anvil and places the Compact, the allocator, USDC and the sponsor's locks. */
  async start(): Promise<TestChain> {
    const chain = await startTestChain({ chainId: 10 })
    this.chain = chain
    const [deployer, sponsor, arbiter] = chain.wallets as [TestWallet, TestWallet, TestWallet]
    this.deployer = deployer
    this.sponsor = sponsor
    this.arbiter = arbiter
    this.stranger = chain.wallets[8]!
    const { allocatorId } = await placeCompact(chain, allocatorKey.address)
    this.allocatorId = allocatorId
    this.tag = lockTagOf(allocatorId, 0, 2)
    this.chainTag = lockTagOf(allocatorId, 1, 2)
    this.nativeId = lockIdOf(this.tag, zeroAddress)
    this.usdcId = lockIdOf(this.tag, usdc)
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
        args: [this.tag, zeroAddress],
        value: 10n ** 19n,
      }),
    )
    await send(
      sponsor,
      sponsor.writeContract({
        address: compact,
        abi,
        functionName: 'depositERC20',
        args: [usdc, this.tag, 500_000_000n, zeroAddress],
      }),
    )
    return chain
  }

  /** The latest block's timestamp. */
  async now(): Promise<bigint> {
    return (await this.chain.client.getBlock()).timestamp
  }

  /** The ERC-6909 balance of `owner` in lock `id`. */
  async balance(owner: Address, id: bigint): Promise<bigint> {
    return this.chain.client.readContract({
      address: compact,
      abi,
      functionName: 'balanceOf',
      args: [owner, id],
    })
  }

  /** The ERC-20 balance of `owner` in `token`. */
  async tokenBalance(token: Address, owner: Address): Promise<bigint> {
    return this.chain.client.readContract({
      address: token,
      abi: DevnetERC20.abi,
      functionName: 'balanceOf',
      args: [owner],
    })
  }

  /** The allocator's signature: EIP-712 digest of the claim hash on this chain's Compact domain. */
  async allocatorSign(types: typeof batchCompactTypes | typeof multichainTypes, message: object) {
    const primaryType = 'BatchCompact' in types ? 'BatchCompact' : 'MultichainCompact'
    const typed = { domain: domain(this.chain.chain.id), types, primaryType, message }
    // biome-ignore lint/suspicious/noExplicitAny: the message shape follows `types`
    return allocatorKey.signTypedData(typed as any)
  }

  /** A BatchCompact over (native, usdc) signed by the sponsor with viem, and the allocator's data. */
  async signBatch({ nonce, expires, amounts, signer }: BatchArgs) {
    const m = mandate(amounts[1])
    const message = {
      arbiter: this.arbiter.account.address,
      sponsor: this.sponsor.account.address,
      nonce,
      expires,
      commitments: [
        { lockTag: this.tag, token: zeroAddress, amount: amounts[0] },
        { lockTag: this.tag, token: usdc, amount: amounts[1] },
      ],
      mandate: m,
    }
    const sponsorSignature = await (signer ?? this.sponsor).signTypedData({
      domain: domain(this.chain.chain.id),
      types: batchCompactTypes,
      primaryType: 'BatchCompact',
      message,
    })
    const allocatorData = await this.allocatorSign(batchCompactTypes, message)
    const witness = hashStruct({ types: mandateTypes, primaryType: 'Mandate', data: m })
    return { message, sponsorSignature, allocatorData, witness }
  }

  /** The batchClaim argument for a signed batch: native withdrawn, USDC moved to the recipient. */
  batchPayload(
    signed: Awaited<ReturnType<CompactChain['signBatch']>>,
    args: BatchArgs,
    portions: [bigint, bigint] = args.amounts,
  ) {
    return {
      allocatorData: signed.allocatorData,
      sponsorSignature: signed.sponsorSignature,
      sponsor: this.sponsor.account.address,
      nonce: args.nonce,
      expires: args.expires,
      witness: signed.witness,
      witnessTypestring,
      claims: [
        // Native: withdrawn to the recipient (claimant lockTag 0).
        {
          id: this.nativeId,
          allocatedAmount: args.amounts[0],
          portions: [{ claimant: claimantOf('0x0', recipient), amount: portions[0] }],
        },
        // USDC: the lock moves to the recipient (same lockTag).
        {
          id: this.usdcId,
          allocatedAmount: args.amounts[1],
          portions: [{ claimant: claimantOf(this.tag, recipient), amount: portions[1] }],
        },
      ],
    } as const
  }
}

/** Registers the calling file's hooks (see useChain) and returns the Compact chain they fill. */
export function useCompactChain(): CompactChain {
  const fx = new CompactChain()
  useChain(fx)
  return fx
}
