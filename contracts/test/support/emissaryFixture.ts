/**
 * The IntentEmissary on one Anvil (chain 10), as the emissary*.test.ts files use it: the Compact
 * and the allocator, the emissary, the OwnableValidator, and a sponsor that is a contract wallet
 * (ERC-1271: only its owner's ECDSA) holding 100 000 USDC units under each of two lock tags. Each
 * test starts from that state.
 *
 * @example
 * const fx = useEmissaryChain()
 * test('...', async () => {
 *   await fx.assign(fx.tag, addresses.emissary)
 * })
 */
import { type Address, encodeAbiParameters, encodeFunctionData, type Hex, keccak256, toHex } from 'viem'
import { type PrivateKeyAccount, privateKeyToAccount } from 'viem/accounts'
import { COMPACT_TYPES, EMISSARY_ENABLE_TYPES } from '../../../spec'
import { addresses } from '../../addresses'
import {
  Allocator,
  DevnetERC20,
  IntentEmissary,
  OwnableValidator,
  TestERC1271Wallet,
  TheCompact,
} from '../../generated/artifacts'
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
} from '../helpers'
import { useChain } from './useChain'

export const usdc = '0x0b2C639c533813f4Aa9D7837CAf62653d097Ff85' as const
/** The sponsor: a contract wallet whose ERC-1271 accepts only its owner's ECDSA. */
export const sponsor = '0x000000000000000000000000000000000E1551e5' as const
// Errors of every contract a call may pass through, so viem names them.
const walletAbi = [
  ...TestERC1271Wallet.abi,
  ...TheCompact.abi.filter((i) => i.type === 'error'),
  ...IntentEmissary.abi.filter((i) => i.type === 'error'),
]
export const compactAbi = [...TheCompact.abi, ...Allocator.abi.filter((i) => i.type === 'error')]
export const emissaryAbi = IntentEmissary.abi

export const allocatorKey = anvilAccounts[3]!
/** Owner of the sponsor wallet: its ECDSA is what the wallet's ERC-1271 accepts. */
export const walletOwnerKey = anvilAccounts[5]!
/** The sponsor's OwnableValidator owner: its raw ECDSA is neither ECDSA- nor 1271-valid for the sponsor. */
export const validatorOwner = privateKeyToAccount(keccak256(toHex('emissary.test validator owner')))
export const strangerKey = privateKeyToAccount(keccak256(toHex('emissary.test stranger')))
export const recipient = anvilAccounts[6]!.address
export const otherEmissary = '0x000000000000000000000000000000000000E222' as const

export const emissaryDomain = {
  name: 'IntentEmissary',
  version: '1',
  verifyingContract: addresses.emissary,
} as const

/** The chain, its wallets and lock tags, and the calls the tests share. */
export class EmissaryChain {
  chain!: TestChain
  deployer!: TestWallet
  arbiter!: TestWallet
  walletOwner!: TestWallet
  tag!: Hex // Multichain, reset period 2 (one minute)
  tag2!: Hex // Multichain, reset period 1 (15 s)

  /** Starts the Anvil and places the contracts, the sponsor wallet and its locks. */
  async start(): Promise<TestChain> {
    const chain = await startTestChain({ chainId: 10 })
    this.chain = chain
    const deployer = chain.wallets[0]!
    this.deployer = deployer
    this.arbiter = chain.wallets[2]!
    const walletOwner = chain.wallets[5]!
    this.walletOwner = walletOwner
    const { allocatorId } = await placeCompact(chain, allocatorKey.address, deployer)
    this.tag = lockTagOf(allocatorId, 0, 2)
    this.tag2 = lockTagOf(allocatorId, 0, 1)
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
    await this.asSponsor(
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
    for (const lockTag of [this.tag, this.tag2])
      await send(
        deployer,
        deployer.writeContract({
          address: addresses.compact,
          abi: TheCompact.abi,
          functionName: 'depositERC20',
          args: [usdc, lockTag, 100_000n, sponsor],
        }),
      )
    return chain
  }

  /** The Compact's EIP-712 domain on this chain. */
  compactDomain() {
    return {
      name: 'The Compact',
      version: '1',
      chainId: this.chain.chain.id,
      verifyingContract: addresses.compact,
    } as const
  }

  /** The latest block's timestamp. */
  async now(): Promise<bigint> {
    return (await this.chain.client.getBlock()).timestamp
  }

  /** Sends `data` to `target` from the sponsor wallet (its owner calls `execute`). */
  async asSponsor(target: Address, data: Hex) {
    const hash = await this.walletOwner.writeContract({
      address: sponsor,
      abi: walletAbi,
      functionName: 'execute',
      args: [target, 0n, data],
    })
    const receipt = await this.walletOwner.waitForTransactionReceipt({ hash })
    if (receipt.status !== 'success') throw new Error(`execute ${hash} reverted`)
    return receipt
  }

  /** The sponsor assigns `emissary` to `lockTag` on the Compact. */
  assign(lockTag: Hex, emissary: Address) {
    return this.asSponsor(
      addresses.compact,
      encodeFunctionData({ abi: TheCompact.abi, functionName: 'assignEmissary', args: [lockTag, emissary] }),
    )
  }

  /** The sponsor schedules a change of `lockTag`'s emissary. */
  schedule(lockTag: Hex) {
    return this.asSponsor(
      addresses.compact,
      encodeFunctionData({
        abi: TheCompact.abi,
        functionName: 'scheduleEmissaryAssignment',
        args: [lockTag],
      }),
    )
  }

  /** The Compact's emissary status of the sponsor's `lockTag`. */
  status(lockTag: Hex) {
    return this.chain.client.readContract({
      address: addresses.compact,
      abi: TheCompact.abi,
      functionName: 'getEmissaryStatus',
      args: [sponsor, lockTag],
    })
  }

  /** An EmissaryEnable for the sponsor and `lockTag`, signed by `allocator` and `user` (the wallet's owner). */
  async signEnable(
    lockTag: Hex,
    options: { allocator?: PrivateKeyAccount; user?: PrivateKeyAccount; nonce?: bigint } = {},
  ) {
    const message = {
      account: sponsor as Address,
      lockTag,
      validator: addresses.ownableValidator as Address,
      allocator: addresses.allocator as Address,
      nonce: options.nonce ?? 1n,
      expires: (await this.now()) + 3600n,
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

  /** Sends a signed EmissaryEnable to the emissary. */
  enable(signed: Awaited<ReturnType<EmissaryChain['signEnable']>>) {
    return send(
      this.deployer,
      this.deployer.writeContract({
        address: addresses.emissary,
        abi: emissaryAbi,
        functionName: 'enable',
        args: [signed.message, signed.allocatorSig, signed.userSig],
      }),
    )
  }

  /** A plain `Compact` over `amount` of the sponsor's USDC lock under `lockTag`, signed by `signer`. */
  async compactClaim(lockTag: Hex, signer: PrivateKeyAccount, nonce: bigint, amount = 1_000n) {
    const expires = (await this.now()) + 600n
    const message = {
      arbiter: this.arbiter.account.address,
      sponsor: sponsor as Address,
      nonce,
      expires,
      lockTag,
      token: usdc as Address,
      amount,
    }
    const typed = {
      domain: this.compactDomain(),
      types: COMPACT_TYPES,
      primaryType: 'Compact',
      message,
    } as const
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

  /** The arbiter claims `payload` on the Compact. */
  claim(payload: Awaited<ReturnType<EmissaryChain['compactClaim']>>) {
    return send(
      this.arbiter,
      this.arbiter.writeContract({
        address: addresses.compact,
        abi: compactAbi,
        functionName: 'claim',
        args: [payload],
      }),
    )
  }

  /** The USDC balance of `holder`. */
  usdcOf(holder: Address) {
    return this.chain.client.readContract({
      address: usdc,
      abi: DevnetERC20.abi,
      functionName: 'balanceOf',
      args: [holder],
    })
  }
}

/** Registers the calling file's hooks (see useChain) and returns the emissary chain they fill. */
export function useEmissaryChain(): EmissaryChain {
  const fx = new EmissaryChain()
  useChain(fx, { startTimeout: 60_000 })
  return fx
}
