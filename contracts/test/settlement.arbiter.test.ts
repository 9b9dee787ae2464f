import { type Address, concat, hashStruct, hashTypedData, keccak256 } from 'viem'
import { describe, expect, it } from 'vitest'
import { addresses } from '../addresses'
import { IntentArbiter, TheCompact } from '../generated/artifacts'
import {
  type ArbiterChain,
  allocatorSigner,
  arbiterAbi,
  mandateArg,
  relayer,
  revertName,
  sdkCompact,
  sdkPermit2,
  sponsor,
  stranger,
  usdcOptimism,
  useArbiterChain,
} from './support/arbiterFixture'

// IntentArbiter: its Mandate hash against the SDK's typed data, and claims of Compact-funded elements.
const fx = useArbiterChain()

type Element = ReturnType<ArbiterChain['element']>

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
  const separator = await fx.publicClient.readContract({
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
  return revertName(
    fx.publicClient.simulateContract({
      account: from,
      address: addresses.arbiter,
      abi: arbiterAbi,
      functionName: 'claimCompact',
      args: [compactParams(params)],
    }),
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
    idsAndAmounts: [[fx.lockId(p.token), p.amount]] as [bigint, bigint][],
    mandate: mandateArg(elements[p.index].mandate),
    elementIndex: BigInt(p.index),
    notarizedChainId: BigInt(elements[0].chainId),
    additionalChains: p.signed.elementHashes.filter((_, i) => i !== p.index),
    sponsorSignature: p.signed.sponsorSignature,
    allocatorData: p.signed.allocatorData,
  }
}

async function claimCompact(params: Parameters<typeof compactParams>[0]) {
  const { request } = await fx.publicClient.simulateContract({
    account: relayer,
    address: addresses.arbiter,
    abi: IntentArbiter.abi,
    functionName: 'claimCompact',
    args: [compactParams(params)],
  })
  const receipt = await fx.publicClient.waitForTransactionReceipt({
    hash: await fx.walletOf(relayer).writeContract(request),
  })
  expect(receipt.status).toBe('success')
}

describe('IntentArbiter: Mandate witness', () => {
  it('hashes the Mandate exactly as viem hashes the SDK’s Compact and Permit2 typed data', async () => {
    const e = fx.element(10, 1n)
    const compactTd = sdkCompact.getCompactTypedData({
      sponsor: sponsor.address,
      nonce: '1',
      expires: '2',
      elements: [e],
    })
    // biome-ignore lint/suspicious/noExplicitAny: the SDK's typed data is untyped CommonJS
    const compactMandate = (compactTd.message.elements as any[])[0].mandate
    const onChain = await fx.publicClient.readContract({
      address: addresses.arbiter,
      abi: IntentArbiter.abi,
      functionName: 'hashMandate',
      args: [mandateArg(compactMandate)],
    })
    expect(onChain).toBe(hashStruct({ types: compactTd.types, primaryType: 'Mandate', data: compactMandate }))

    const permitTd = sdkPermit2.getTypedData(e, 1n, 2n)
    const permitMandate = permitTd.message.mandate
    expect(
      await fx.publicClient.readContract({
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
    const nonce = ++fx.intentNonce
    const expires = (await fx.publicClient.getBlock()).timestamp + 3600n
    const elements = [fx.element(10, 40_000_000n), fx.element(8453, 60_000_000n)]
    const signed = await signCompact(elements, nonce, expires)
    const params = { signed, index: 0, nonce, expires, amount: 40_000_000n, token: usdcOptimism }

    expect(await claimCompactError(stranger, params)).toBe('NotRelayer')
    const before = await fx.usdcBalance(relayer.address)
    await claimCompact(params)
    expect((await fx.usdcBalance(relayer.address)) - before).toBe(40_000_000n)
    expect(await claimCompactError(relayer, params)).toBe('AlreadyClaimed')
  })

  it('claims an exogenous element with exogenousBatchClaim (signed on the notarized chain’s domain)', async () => {
    // The sponsor signs with elements[0] on chain 8453; this chain (10) holds elements[1].
    const nonce = ++fx.intentNonce
    const expires = (await fx.publicClient.getBlock()).timestamp + 3600n
    const elements = [fx.element(8453, 10_000_000n), fx.element(10, 30_000_000n)]
    const typedData = sdkCompact.getCompactTypedData({
      sponsor: sponsor.address,
      nonce: String(nonce),
      expires: String(expires),
      elements,
    })
    expect(typedData.domain.chainId).toBe(8453)
    const signed = await signCompact(elements, nonce, expires)
    const before = await fx.usdcBalance(relayer.address)
    await claimCompact({ signed, index: 1, nonce, expires, amount: 30_000_000n, token: usdcOptimism })
    expect((await fx.usdcBalance(relayer.address)) - before).toBe(30_000_000n)
  })

  it('fails when the Mandate given differs from the one the sponsor signed', async () => {
    const nonce = ++fx.intentNonce
    const expires = (await fx.publicClient.getBlock()).timestamp + 3600n
    const signed = await signCompact([fx.element(10, 5_000_000n)], nonce, expires)
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
      elements: [fx.element(10, 1n)],
    })
    // biome-ignore lint/suspicious/noExplicitAny: the SDK's typed data is untyped CommonJS
    const legacy = hashTypedData(td as any)
    // biome-ignore lint/suspicious/noExplicitAny: as above
    const v1 = hashTypedData({ ...td, domain: { ...td.domain, verifyingContract: addresses.compact } } as any)
    expect(String(td.domain.verifyingContract).toLowerCase()).toBe(addresses.compactLegacy.toLowerCase())
    expect(legacy).not.toBe(v1)
  })
})
