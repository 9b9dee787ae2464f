/**
 * The IntentArbiter on one Anvil (OP Mainnet's id, 10), as the settlement.arbiter*.test.ts files use
 * it: the Compact, the allocator and the arbiter placed and initialised, USDC placed, and the
 * sponsor's 500 USDC locked under a multichain tag. Tests build on each other's state (each uses a
 * fresh nonce from `++fx.intentNonce`). Also the public SDK's own typed-data builders, so the tests
 * sign exactly what the SDK 1.x signs.
 *
 * @example
 * const fx = useArbiterChain()
 * it('...', async () => {
 *   expect(await fx.usdcBalance(relayer.address)).toBe(0n)
 * })
 */
import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'
import {
  type Address,
  concat,
  createPublicClient,
  createTestClient,
  createWalletClient,
  encodeFunctionData,
  type Hex,
  http,
  keccak256,
  parseEther,
  slice,
  toHex,
  zeroAddress,
} from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { optimism } from 'viem/chains'
import { expect } from 'vitest'
import { type AnvilInstance, startAnvil } from '../../../simulator/devnet/anvil'
import { addresses } from '../../addresses'
import { Allocator, DevnetERC20, IntentArbiter, Permit2, TheCompact } from '../../generated/artifacts'
import { type StartedChain, useChain } from './useChain'

// The public SDK's own typed-data builders (CommonJS files behind its package exports), so the
// test signs exactly what the SDK 1.x signs.
const require = createRequire(import.meta.url)
const sdkDir = dirname(require.resolve('@rhinestone/sdk'))
/** Typed data as the SDK's builders return it. */
export type TypedData = {
  domain: Record<string, unknown>
  types: Record<string, readonly { name: string; type: string }[]>
  primaryType: string
  message: Record<string, unknown>
}
export const sdkCompact = require(join(sdkDir, 'execution/compact.js')) as {
  getCompactTypedData(intentOp: unknown): TypedData
}
export const sdkPermit2 = require(join(sdkDir, 'execution/permit2.js')) as {
  getTypedData(element: unknown, nonce: bigint, expires: bigint): TypedData
}

export const relayer = privateKeyToAccount(keccak256(toHex('arbiter.test relayer')))
export const sponsor = privateKeyToAccount(keccak256(toHex('arbiter.test sponsor')))
export const allocatorSigner = privateKeyToAccount(keccak256(toHex('arbiter.test allocator')))
export const stranger = privateKeyToAccount(keccak256(toHex('arbiter.test stranger')))
export const usdcOptimism: Address = '0x0b2C639c533813f4Aa9D7837CAf62653d097Ff85'
const usdcBase: Address = '0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913'
const zeroVt = toHex(0, { size: 32 })
const resetPeriod = 6n // SevenDaysAndOneHour; scope 0 = Multichain

/** The arbiter's ABI plus the errors of The Compact and Permit2, which its claims bubble up. */
export const arbiterAbi = [
  ...IntentArbiter.abi,
  ...TheCompact.abi.filter((item) => item.type === 'error'),
  ...Permit2.abi.filter((item) => item.type === 'error' && item.name !== 'InvalidNonce'),
] as const

/** The name of the custom error a simulated call reverts with, or 'no revert'. */
export function revertName(simulation: Promise<unknown>): Promise<string | undefined> {
  return simulation.then(
    () => 'no revert',
    // biome-ignore lint/suspicious/noExplicitAny: viem's ContractFunctionRevertedError
    (error: any) => error.walk((e: any) => e?.data?.errorName)?.data?.errorName as string | undefined,
  )
}

/** The Mandate message inside the SDK's typed data, as viem-typed arguments for the arbiter. */
// biome-ignore lint/suspicious/noExplicitAny: the SDK's typed data is untyped CommonJS
export function mandateArg(message: any) {
  const m = message
  return {
    target: {
      recipient: m.target.recipient as Address,
      tokenOut: (m.target.tokenOut as { token: Hex; amount: bigint }[]).map((t) => ({
        token: t.token,
        amount: t.amount,
      })),
      targetChain: m.target.targetChain as bigint,
      fillExpiry: m.target.fillExpiry as bigint,
    },
    minGas: m.minGas as bigint,
    originOps: {
      vt: m.originOps.vt as Hex,
      ops: (m.originOps.ops as { to: Address; value: string; data: Hex }[]).map((o) => ({
        to: o.to,
        value: BigInt(o.value),
        data: o.data,
      })),
    },
    destOps: {
      vt: m.destOps.vt as Hex,
      ops: (m.destOps.ops as { to: Address; value: string; data: Hex }[]).map((o) => ({
        to: o.to,
        value: BigInt(o.value),
        data: o.data,
      })),
    },
    q: m.q as Hex,
  }
}

function clientsOf(anvil: AnvilInstance) {
  const transport = http(anvil.rpcUrl)
  return {
    publicClient: createPublicClient({ chain: optimism, transport }),
    testClient: createTestClient({ chain: optimism, transport, mode: 'anvil' }),
  }
}

/** The chain, its clients and lock tag, and the calls the tests share. */
export class ArbiterChain {
  anvil!: AnvilInstance
  publicClient!: ReturnType<typeof clientsOf>['publicClient']
  testClient!: ReturnType<typeof clientsOf>['testClient']
  lockTag!: Hex
  intentNonce = 100n

  /** Starts the Anvil and places and initialises the contracts; locks the sponsor's USDC. */
  async start(): Promise<StartedChain> {
    const anvil = await startAnvil({ chainId: 10 })
    this.anvil = anvil
    const { publicClient, testClient } = clientsOf(anvil)
    this.publicClient = publicClient
    this.testClient = testClient
    for (const who of [relayer, sponsor, stranger])
      await testClient.setBalance({ address: who.address, value: parseEther('10') })
    await testClient.setCode({ address: addresses.compact, bytecode: TheCompact.deployedBytecode })
    await testClient.setCode({ address: addresses.allocator, bytecode: Allocator.deployedBytecode })
    await testClient.setCode({ address: addresses.arbiter, bytecode: IntentArbiter.deployedBytecode })
    await testClient.setCode({ address: usdcOptimism, bytecode: DevnetERC20.deployedBytecode })
    await this.write(relayer, addresses.allocator, Allocator.abi, 'initialize', [allocatorSigner.address])
    await this.write(relayer, addresses.compact, TheCompact.abi, '__registerAllocator', [
      addresses.allocator,
      '0x',
    ])
    await this.write(relayer, addresses.arbiter, IntentArbiter.abi, 'initialize', [relayer.address])
    await this.write(relayer, usdcOptimism, DevnetERC20.abi, 'initialize', [
      'USD Coin',
      'USDC',
      6,
      relayer.address,
    ])
    await this.write(relayer, usdcOptimism, DevnetERC20.abi, 'mint', [sponsor.address, 1_000_000_000n])

    const allocatorId = await publicClient.readContract({
      address: addresses.compact,
      abi: TheCompact.abi,
      functionName: 'toAllocatorId',
      args: [addresses.allocator],
    })
    this.lockTag = slice(toHex((resetPeriod << 252n) | (BigInt(allocatorId) << 160n), { size: 32 }), 0, 12)
    await this.write(sponsor, usdcOptimism, DevnetERC20.abi, 'approve', [addresses.compact, 2n ** 256n - 1n])
    await this.write(sponsor, addresses.compact, TheCompact.abi, 'depositERC20', [
      usdcOptimism,
      this.lockTag,
      500_000_000n,
      sponsor.address,
    ])
    return { client: testClient, stop: () => anvil.stop() }
  }

  /** A wallet client of `account` on this chain. */
  walletOf(account: typeof relayer) {
    return createWalletClient({ chain: optimism, transport: http(this.anvil.rpcUrl), account })
  }

  /** Sends a contract call from `from` and expects it to succeed. */
  async write(
    from: typeof relayer,
    address: Address,
    // biome-ignore lint/suspicious/noExplicitAny: a thin helper over typed viem calls
    abi: any,
    functionName: string,
    args: unknown[],
  ) {
    const hash = await this.walletOf(from).writeContract({ address, abi, functionName, args })
    expect((await this.publicClient.waitForTransactionReceipt({ hash })).status).toBe('success')
  }

  /** The lock id of `token` under the sponsor's lock tag. */
  lockId(token: Address): bigint {
    return BigInt(concat([this.lockTag, token]))
  }

  /** One IntentOp element as the service's route response gives it to the SDK. */
  element(chainId: number, amount: bigint, arbiter: Address = addresses.arbiter) {
    return {
      arbiter,
      chainId: String(chainId),
      idsAndAmounts: [[String(this.lockId(chainId === 10 ? usdcOptimism : usdcBase)), String(amount)]],
      mandate: {
        recipient: sponsor.address,
        tokenOut: [[String(this.lockId(usdcBase)), '150000000']],
        destinationChainId: '8453',
        fillDeadline: '1900000000',
        minGas: '0',
        preClaimOps: { vt: zeroVt, ops: [] },
        destinationOps: {
          vt: zeroVt,
          ops: [
            {
              to: usdcBase,
              value: '0',
              data: encodeFunctionData({
                abi: DevnetERC20.abi,
                functionName: 'approve',
                args: [zeroAddress, 1n],
              }),
            },
          ],
        },
        qualifier: {
          encodedVal: '0x0102',
          settlementContext: { fundingMethod: 'COMPACT', settlementLayer: 'SAME_CHAIN' },
        },
      },
    }
  }

  /** The USDC balance of `address`. */
  usdcBalance(address: Address) {
    return this.publicClient.readContract({
      address: usdcOptimism,
      abi: DevnetERC20.abi,
      functionName: 'balanceOf',
      args: [address],
    })
  }
}

/** Registers the calling file's hooks (see useChain; no snapshots) and returns the chain they fill. */
export function useArbiterChain(): ArbiterChain {
  const fx = new ArbiterChain()
  useChain(fx, { snapshots: false })
  return fx
}
