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
  hashStruct,
  hashTypedData,
  http,
  keccak256,
  parseEther,
  slice,
  toHex,
  zeroAddress,
} from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { optimism } from 'viem/chains'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type AnvilInstance, startAnvil } from '../../simulator/devnet/anvil'
import { addresses } from '../addresses'
import { Allocator, DevnetERC20, IntentArbiter, Permit2, TheCompact } from '../generated/artifacts'

// The public SDK's own typed-data builders (CommonJS files behind its package exports), so the
// test signs exactly what the SDK 1.x signs.
const require = createRequire(import.meta.url)
const sdkDir = dirname(require.resolve('@rhinestone/sdk'))
type TypedData = {
  domain: Record<string, unknown>
  types: Record<string, readonly { name: string; type: string }[]>
  primaryType: string
  message: Record<string, unknown>
}
const sdkCompact = require(join(sdkDir, 'execution/compact.js')) as {
  getCompactTypedData(intentOp: unknown): TypedData
}
const sdkPermit2 = require(join(sdkDir, 'execution/permit2.js')) as {
  getTypedData(element: unknown, nonce: bigint, expires: bigint): TypedData
}

const relayer = privateKeyToAccount(keccak256(toHex('arbiter.test relayer')))
const sponsor = privateKeyToAccount(keccak256(toHex('arbiter.test sponsor')))
const allocatorSigner = privateKeyToAccount(keccak256(toHex('arbiter.test allocator')))
const stranger = privateKeyToAccount(keccak256(toHex('arbiter.test stranger')))
const usdcOptimism: Address = '0x0b2C639c533813f4Aa9D7837CAf62653d097Ff85'
const usdcBase: Address = '0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913'
const zeroVt = toHex(0, { size: 32 })
const resetPeriod = 6n // SevenDaysAndOneHour; scope 0 = Multichain

/** The arbiter's ABI plus the errors of The Compact and Permit2, which its claims bubble up. */
const arbiterAbi = [
  ...IntentArbiter.abi,
  ...TheCompact.abi.filter((item) => item.type === 'error'),
  ...Permit2.abi.filter((item) => item.type === 'error' && item.name !== 'InvalidNonce'),
] as const

let anvil: AnvilInstance
let publicClient: ReturnType<typeof createPublicClient<ReturnType<typeof http>, typeof optimism>>
let test: ReturnType<typeof createTestClient<'anvil', ReturnType<typeof http>, typeof optimism>>
let lockTag: Hex
let intentNonce = 100n

function walletOf(account: typeof relayer) {
  return createWalletClient({ chain: optimism, transport: http(anvil.rpcUrl), account })
}

async function write(
  from: typeof relayer,
  address: Address,
  // biome-ignore lint/suspicious/noExplicitAny: a thin helper over typed viem calls
  abi: any,
  functionName: string,
  args: unknown[],
) {
  const hash = await walletOf(from).writeContract({ address, abi, functionName, args })
  expect((await publicClient.waitForTransactionReceipt({ hash })).status).toBe('success')
}

beforeAll(async () => {
  anvil = await startAnvil({ chainId: 10 })
  const transport = http(anvil.rpcUrl)
  publicClient = createPublicClient({ chain: optimism, transport })
  test = createTestClient({ chain: optimism, transport, mode: 'anvil' })
  for (const who of [relayer, sponsor, stranger])
    await test.setBalance({ address: who.address, value: parseEther('10') })
  await test.setCode({ address: addresses.compact, bytecode: TheCompact.deployedBytecode })
  await test.setCode({ address: addresses.allocator, bytecode: Allocator.deployedBytecode })
  await test.setCode({ address: addresses.arbiter, bytecode: IntentArbiter.deployedBytecode })
  await test.setCode({ address: usdcOptimism, bytecode: DevnetERC20.deployedBytecode })
  await write(relayer, addresses.allocator, Allocator.abi, 'initialize', [allocatorSigner.address])
  await write(relayer, addresses.compact, TheCompact.abi, '__registerAllocator', [addresses.allocator, '0x'])
  await write(relayer, addresses.arbiter, IntentArbiter.abi, 'initialize', [relayer.address])
  await write(relayer, usdcOptimism, DevnetERC20.abi, 'initialize', ['USD Coin', 'USDC', 6, relayer.address])
  await write(relayer, usdcOptimism, DevnetERC20.abi, 'mint', [sponsor.address, 1_000_000_000n])

  const allocatorId = await publicClient.readContract({
    address: addresses.compact,
    abi: TheCompact.abi,
    functionName: 'toAllocatorId',
    args: [addresses.allocator],
  })
  lockTag = slice(toHex((resetPeriod << 252n) | (BigInt(allocatorId) << 160n), { size: 32 }), 0, 12)
  await write(sponsor, usdcOptimism, DevnetERC20.abi, 'approve', [addresses.compact, 2n ** 256n - 1n])
  await write(sponsor, addresses.compact, TheCompact.abi, 'depositERC20', [
    usdcOptimism,
    lockTag,
    500_000_000n,
    sponsor.address,
  ])
})

afterAll(async () => {
  await anvil?.stop()
})

function lockId(token: Address): bigint {
  return BigInt(concat([lockTag, token]))
}

/** One IntentOp element as the service's route response gives it to the SDK. */
function element(chainId: number, amount: bigint, arbiter: Address = addresses.arbiter) {
  return {
    arbiter,
    chainId: String(chainId),
    idsAndAmounts: [[String(lockId(chainId === 10 ? usdcOptimism : usdcBase)), String(amount)]],
    mandate: {
      recipient: sponsor.address,
      tokenOut: [[String(lockId(usdcBase)), '150000000']],
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

type Element = ReturnType<typeof element>

/** The Mandate message inside the SDK's typed data, as viem-typed arguments for the arbiter. */
// biome-ignore lint/suspicious/noExplicitAny: the SDK's typed data is untyped CommonJS
function mandateArg(message: any) {
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

/** Signs a MultichainCompact the way the SDK builds it, on the v1 Compact's domain (our Compact's address). */
async function signCompact(elements: Element[], nonce: bigint, expires: bigint) {
  const typedData = sdkCompact.getCompactTypedData({
    sponsor: sponsor.address,
    nonce: String(nonce),
    expires: String(expires),
    elements,
  })
  // The SDK 1.x signs for an older Compact address; our v1 Compact verifies its own domain.
  const domain = { ...typedData.domain, verifyingContract: addresses.compact }
  // biome-ignore lint/suspicious/noExplicitAny: the SDK's typed data is untyped CommonJS
  const full = { ...typedData, domain } as any
  const sponsorSignature = await sponsor.signTypedData(full)
  const claimHash = hashStruct({ types: full.types, primaryType: 'MultichainCompact', data: full.message })
  // biome-ignore lint/suspicious/noExplicitAny: as above
  const elementHashes = (full.message.elements as any[]).map((e) =>
    hashStruct({ types: full.types, primaryType: 'Element', data: e }),
  )
  const separator = await publicClient.readContract({
    address: addresses.compact,
    abi: TheCompact.abi,
    functionName: 'DOMAIN_SEPARATOR',
  })
  const allocatorData = await allocatorSigner.sign({
    hash: keccak256(concat(['0x1901', separator, claimHash])),
  })
  return { full, sponsorSignature, claimHash, elementHashes, allocatorData }
}

async function claimCompactError(from: typeof relayer, params: Parameters<typeof compactParams>[0]) {
  return publicClient
    .simulateContract({
      account: from,
      address: addresses.arbiter,
      abi: arbiterAbi,
      functionName: 'claimCompact',
      args: [compactParams(params)],
    })
    .then(
      () => 'no revert',
      // biome-ignore lint/suspicious/noExplicitAny: viem's ContractFunctionRevertedError
      (error: any) => error.walk((e: any) => e?.data?.errorName)?.data?.errorName as string | undefined,
    )
}

function compactParams(p: {
  signed: Awaited<ReturnType<typeof signCompact>>
  index: number
  nonce: bigint
  expires: bigint
  amount: bigint
  token: Address
}) {
  // biome-ignore lint/suspicious/noExplicitAny: the SDK's typed data is untyped CommonJS
  const elements = p.signed.full.message.elements as any[]
  return {
    sponsor: sponsor.address,
    nonce: p.nonce,
    expires: p.expires,
    idsAndAmounts: [[lockId(p.token), p.amount]] as [bigint, bigint][],
    mandate: mandateArg(elements[p.index].mandate),
    elementIndex: BigInt(p.index),
    notarizedChainId: BigInt(elements[0].chainId),
    additionalChains: p.signed.elementHashes.filter((_, i) => i !== p.index),
    sponsorSignature: p.signed.sponsorSignature,
    allocatorData: p.signed.allocatorData,
  }
}

async function claimCompact(params: Parameters<typeof compactParams>[0]) {
  const { request } = await publicClient.simulateContract({
    account: relayer,
    address: addresses.arbiter,
    abi: IntentArbiter.abi,
    functionName: 'claimCompact',
    args: [compactParams(params)],
  })
  const receipt = await publicClient.waitForTransactionReceipt({
    hash: await walletOf(relayer).writeContract(request),
  })
  expect(receipt.status).toBe('success')
}

function usdcBalance(address: Address) {
  return publicClient.readContract({
    address: usdcOptimism,
    abi: DevnetERC20.abi,
    functionName: 'balanceOf',
    args: [address],
  })
}

describe('IntentArbiter: Mandate witness', () => {
  it('hashes the Mandate exactly as viem hashes the SDK’s Compact and Permit2 typed data', async () => {
    const e = element(10, 1n)
    const compactTd = sdkCompact.getCompactTypedData({
      sponsor: sponsor.address,
      nonce: '1',
      expires: '2',
      elements: [e],
    })
    // biome-ignore lint/suspicious/noExplicitAny: the SDK's typed data is untyped CommonJS
    const compactMandate = (compactTd.message.elements as any[])[0].mandate
    const onChain = await publicClient.readContract({
      address: addresses.arbiter,
      abi: IntentArbiter.abi,
      functionName: 'hashMandate',
      args: [mandateArg(compactMandate)],
    })
    expect(onChain).toBe(hashStruct({ types: compactTd.types, primaryType: 'Mandate', data: compactMandate }))

    const permitTd = sdkPermit2.getTypedData(e, 1n, 2n)
    const permitMandate = permitTd.message.mandate
    expect(
      await publicClient.readContract({
        address: addresses.arbiter,
        abi: IntentArbiter.abi,
        functionName: 'hashMandate',
        args: [mandateArg(permitMandate)],
      }),
    ).toBe(
      hashStruct({
        types: permitTd.types,
        primaryType: 'Mandate',
        data: permitMandate as Record<string, unknown>,
      }),
    )
  })
})

describe('IntentArbiter: Compact claims', () => {
  it('claims the notarized element with batchMultichainClaim and pays the relayer the underlying token', async () => {
    const nonce = ++intentNonce
    const expires = (await publicClient.getBlock()).timestamp + 3600n
    const elements = [element(10, 40_000_000n), element(8453, 60_000_000n)]
    const signed = await signCompact(elements, nonce, expires)
    const params = { signed, index: 0, nonce, expires, amount: 40_000_000n, token: usdcOptimism }

    expect(await claimCompactError(stranger, params)).toBe('NotRelayer')
    const before = await usdcBalance(relayer.address)
    await claimCompact(params)
    expect((await usdcBalance(relayer.address)) - before).toBe(40_000_000n)
    expect(await claimCompactError(relayer, params)).toBe('AlreadyClaimed')
  })

  it('claims an exogenous element with exogenousBatchClaim (signed on the notarized chain’s domain)', async () => {
    // The sponsor signs with elements[0] on chain 8453; this chain (10) holds elements[1].
    const nonce = ++intentNonce
    const expires = (await publicClient.getBlock()).timestamp + 3600n
    const elements = [element(8453, 10_000_000n), element(10, 30_000_000n)]
    const typedData = sdkCompact.getCompactTypedData({
      sponsor: sponsor.address,
      nonce: String(nonce),
      expires: String(expires),
      elements,
    })
    expect(typedData.domain.chainId).toBe(8453)
    const signed = await signCompact(elements, nonce, expires)
    const before = await usdcBalance(relayer.address)
    await claimCompact({ signed, index: 1, nonce, expires, amount: 30_000_000n, token: usdcOptimism })
    expect((await usdcBalance(relayer.address)) - before).toBe(30_000_000n)
  })

  it('fails when the Mandate given differs from the one the sponsor signed', async () => {
    const nonce = ++intentNonce
    const expires = (await publicClient.getBlock()).timestamp + 3600n
    const signed = await signCompact([element(10, 5_000_000n)], nonce, expires)
    // biome-ignore lint/suspicious/noExplicitAny: the SDK's typed data is untyped CommonJS
    const elements = signed.full.message.elements as any[]
    elements[0].mandate = { ...elements[0].mandate, q: keccak256('0x03') }
    expect(
      await claimCompactError(relayer, {
        signed,
        index: 0,
        nonce,
        expires,
        amount: 5_000_000n,
        token: usdcOptimism,
      }),
    ).toBe('InvalidSignature')
  })

  it('keeps the digest the SDK signs checkable: the v1-domain digest differs from the SDK’s legacy-domain digest', () => {
    const td = sdkCompact.getCompactTypedData({
      sponsor: sponsor.address,
      nonce: '1',
      expires: '2',
      elements: [element(10, 1n)],
    })
    // biome-ignore lint/suspicious/noExplicitAny: the SDK's typed data is untyped CommonJS
    const legacy = hashTypedData(td as any)
    // biome-ignore lint/suspicious/noExplicitAny: as above
    const v1 = hashTypedData({ ...td, domain: { ...td.domain, verifyingContract: addresses.compact } } as any)
    expect(String(td.domain.verifyingContract).toLowerCase()).toBe(addresses.compactLegacy.toLowerCase())
    expect(legacy).not.toBe(v1)
  })
})

describe('IntentArbiter: Permit2 claims', () => {
  beforeAll(async () => {
    await test.setCode({ address: addresses.permit2, bytecode: Permit2.deployedBytecode })
    await write(sponsor, usdcOptimism, DevnetERC20.abi, 'approve', [addresses.permit2, 2n ** 256n - 1n])
  })

  function permit2Params(td: TypedData, nonce: bigint, expires: bigint, amount: bigint, signature: Hex) {
    return {
      sponsor: sponsor.address,
      nonce,
      expires,
      idsAndAmounts: [[lockId(usdcOptimism), amount]] as [bigint, bigint][],
      mandate: mandateArg(td.message.mandate),
      signature,
    }
  }

  async function claimPermit2Error(from: typeof relayer, params: ReturnType<typeof permit2Params>) {
    return publicClient
      .simulateContract({
        account: from,
        address: addresses.arbiter,
        abi: arbiterAbi,
        functionName: 'claimPermit2',
        args: [params],
      })
      .then(
        () => 'no revert',
        // biome-ignore lint/suspicious/noExplicitAny: viem's ContractFunctionRevertedError
        (error: any) => error.walk((e: any) => e?.data?.errorName)?.data?.errorName as string | undefined,
      )
  }

  it('verifies the unmodified SDK PermitBatchWitnessTransferFrom signature and pays the relayer', async () => {
    const nonce = ++intentNonce
    const expires = (await publicClient.getBlock()).timestamp + 3600n
    const e = element(10, 70_000_000n)
    e.mandate.qualifier.settlementContext.fundingMethod = 'PERMIT2'
    const td = sdkPermit2.getTypedData(e, nonce, expires)
    expect(td.message.spender).toBe(addresses.arbiter)
    // biome-ignore lint/suspicious/noExplicitAny: the SDK's typed data is untyped CommonJS
    const signature = await sponsor.signTypedData(td as any)
    const params = permit2Params(td, nonce, expires, 70_000_000n, signature)

    expect(await claimPermit2Error(stranger, params)).toBe('NotRelayer')
    const before = await usdcBalance(relayer.address)
    const { request } = await publicClient.simulateContract({
      account: relayer,
      address: addresses.arbiter,
      abi: IntentArbiter.abi,
      functionName: 'claimPermit2',
      args: [params],
    })
    const receipt = await publicClient.waitForTransactionReceipt({
      hash: await walletOf(relayer).writeContract(request),
    })
    expect(receipt.status).toBe('success')
    expect((await usdcBalance(relayer.address)) - before).toBe(70_000_000n)
    expect(await claimPermit2Error(relayer, params)).toBe('AlreadyClaimed')
  })

  it('rejects a Permit2 claim whose amount or Mandate differs from what the sponsor signed', async () => {
    const nonce = ++intentNonce
    const expires = (await publicClient.getBlock()).timestamp + 3600n
    const e = element(10, 1_000_000n)
    const td = sdkPermit2.getTypedData(e, nonce, expires)
    // biome-ignore lint/suspicious/noExplicitAny: the SDK's typed data is untyped CommonJS
    const signature = await sponsor.signTypedData(td as any)
    const tooMuch = permit2Params(td, nonce, expires, 2_000_000n, signature)
    expect(await claimPermit2Error(relayer, tooMuch)).toBe('InvalidSigner')
    const otherMandate = permit2Params(td, nonce, expires, 1_000_000n, signature)
    otherMandate.mandate = { ...otherMandate.mandate, minGas: 1n }
    expect(await claimPermit2Error(relayer, otherMandate)).toBe('InvalidSigner')
    // The untouched claim still goes through.
    expect(await claimPermit2Error(relayer, permit2Params(td, nonce, expires, 1_000_000n, signature))).toBe(
      'no revert',
    )
  })
})
