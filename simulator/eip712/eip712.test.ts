import { type Address, type Hex, hashStruct, hashTypedData, recoverAddress } from 'viem'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { describe, expect, test } from 'vitest'
import { tokensByChain } from '../../contracts/addresses'
import { createStructHasher, createTypedDataHasher, encodeType } from '../../lib/eip712'
import { toLockId } from '../../lib/lockTag'
import type { IntentOp } from '../../spec/index'
import { DEVNET_LOCK_TAG } from '../devnet/funding'
import { buildIntentOp } from '../quoting/buildIntentOp'
import type { FundingPlan, PlanRequest } from '../quoting/planFunding'
import {
  serverSignatureDigest,
  serverSignatureTypedData,
  signServerSignature,
  verifyServerSignature,
} from '../signing/serverSignature'
import {
  compactTypedData,
  hashMandate,
  MANDATE_TYPES,
  mandateMessage,
  permit2TypedData,
  singleChainOpsTypedData,
} from './typedData'

const server = privateKeyToAccount(generatePrivateKey())
const sponsor = privateKeyToAccount(generatePrivateKey()).address
const token = (chainId: number, symbol: string) => {
  const t = tokensByChain[chainId]?.find((x) => x.symbol === symbol)
  if (!t) throw new Error(`no ${symbol} on ${chainId}`)
  return t
}

/** An IntentOp over two origin chains with destination and pre-claim ops, two outputs, metadata. */
async function sampleIntent(method: FundingPlan['method']) {
  const usdc1 = token(1, 'USDC')
  const usdc8453 = token(8453, 'USDC')
  const weth8453 = token(8453, 'WETH')
  const source = (chainId: number, t: typeof usdc1, amount: bigint) => ({
    chainId,
    token: t.address,
    symbol: t.symbol,
    decimals: t.decimals,
    lockId: toLockId(DEVNET_LOCK_TAG, t.address),
    amount,
  })
  const requests: PlanRequest[] = [
    { symbol: 'USDC', token: usdc8453, amount: 70_000_000n },
    { symbol: 'WETH', token: weth8453, amount: 10n ** 18n },
  ]
  const plan: FundingPlan = {
    method,
    chainIds: [8453, 1],
    allocations: [
      {
        need: 71_000_000n,
        swapped: 0n,
        sources: [source(8453, usdc8453, 40_000_000n), source(1, usdc1, 31_000_000n)],
      },
      { need: 10n ** 18n, swapped: 0n, sources: [source(8453, weth8453, 10n ** 18n)] },
    ],
  }
  const execution = { to: usdc8453.address, value: '7', data: '0xa9059cbb00' as Hex }
  return buildIntentOp({
    plan,
    requests,
    account: {
      address: sponsor,
      accountType: 'EOA',
      isSmartAccount: false,
      setupOps: [],
      delegations: undefined,
    },
    recipient: sponsor,
    destinationChainId: 8453,
    destinationExecutions: [execution, { ...execution, value: 0, data: '0x' }],
    preClaimExecutions: { '1': [execution] },
    minGas: 500_000n,
    now: 1_800_000_000,
    ttlSeconds: 300,
    settlementLayer: 'INTENT_ARBITER',
    signedMetadata: {
      tokenPrices: { USDC: 1, ETH: 3000 },
      gasPrices: { '1': '1000000007', '8453': '1000000007' },
      account: { address: sponsor, accountType: 'EOA', setupOps: [] },
      schemeId: 'v1',
      fees: { sponsorFee: { relayer: 0, protocol: 0 }, protocolFees: {} },
    } as unknown as IntentOp['signedMetadata'],
    server,
  })
}

// biome-ignore lint/suspicious/noExplicitAny: typed data in its JSON form, as viem takes it
const viemDigest = (typed: any) => hashTypedData(typed)

describe('EIP-712 with cached type hashes equals viem', () => {
  test('encodeType matches the Mandate type string the contracts use', () => {
    expect(encodeType('Mandate', MANDATE_TYPES)).toBe(
      'Mandate(Target target,uint128 minGas,Op originOps,Op destOps,bytes32 q)Op(bytes32 vt,Ops[] ops)Ops(address to,uint256 value,bytes data)Target(address recipient,Token[] tokenOut,uint256 targetChain,uint256 fillExpiry)Token(address token,uint256 amount)',
    )
  })

  test.each(['PERMIT2', 'COMPACT'] as const)(
    '%s: server digest, mandates and every signData digest',
    async (method) => {
      const { intentOp, signData } = await sampleIntent(method)
      const typed = serverSignatureTypedData(intentOp)
      expect(serverSignatureDigest(intentOp)).toBe(hashTypedData(typed))
      for (const element of intentOp.elements)
        expect(hashMandate(element.mandate)).toBe(
          hashStruct({
            types: MANDATE_TYPES as unknown as Record<string, { name: string; type: string }[]>,
            primaryType: 'Mandate',
            data: mandateMessage(element.mandate),
          }),
        )
      // Each typed data handed to the user, hashed by a generic hasher made from its own types.
      const all = [
        ...signData.origin,
        signData.destination,
        ...(signData.targetExecution ? [signData.targetExecution] : []),
        compactTypedData(intentOp),
        ...intentOp.elements.map((e) => permit2TypedData(e, intentOp.nonce, intentOp.expires)),
        singleChainOpsTypedData({
          account: sponsor,
          nonce: '1',
          destinationChainId: 1,
          op: { vt: `0x${'00'.repeat(32)}`, ops: [] },
        }),
      ]
      for (const t of all) {
        // biome-ignore lint/suspicious/noExplicitAny: JSON typed data
        const { EIP712Domain: _, ...types } = t.types as any
        // biome-ignore lint/suspicious/noExplicitAny: as above
        const hasher = createTypedDataHasher(t.domain as any, types)
        expect(hasher.hashTypedData(t.primaryType, t.message as Record<string, unknown>)).toBe(viemDigest(t))
      }
    },
  )

  test('the server signature recovers to the server and breaks on any signed change', async () => {
    const { intentOp } = await sampleIntent('PERMIT2')
    expect(
      await recoverAddress({
        hash: hashTypedData(serverSignatureTypedData(intentOp)),
        signature: intentOp.serverSignature as Hex,
      }),
    ).toBe(server.address)
    expect(await signServerSignature(intentOp, server)).toBe(
      await server.signTypedData(serverSignatureTypedData(intentOp)),
    )
    expect(await verifyServerSignature(intentOp, server.address)).toBe(true)
    const element = intentOp.elements[1] as IntentOp['elements'][number]
    const changed: IntentOp = {
      ...intentOp,
      elements: [
        intentOp.elements[0] as IntentOp['elements'][number],
        { ...element, mandate: { ...element.mandate, minGas: '1' } },
      ],
    }
    expect(await verifyServerSignature(changed, server.address)).toBe(false)
    expect(
      await verifyServerSignature({ ...intentOp, sponsor: 'not an address' as Address }, server.address),
    ).toBe(false)
  })

  test('a signature this process made verifies without recovery only for its own digest and signer', async () => {
    const { intentOp } = await sampleIntent('COMPACT')
    const unsigned = { ...intentOp, serverSignature: '0x' as Hex }
    const ours = await signServerSignature(unsigned, server)
    expect(await verifyServerSignature({ ...unsigned, serverSignature: ours }, server.address)).toBe(true)
    // Another key over the very same digest: recovered, and not the server.
    const other = privateKeyToAccount(generatePrivateKey())
    const theirs = await other.sign({ hash: serverSignatureDigest(unsigned) })
    expect(await verifyServerSignature({ ...unsigned, serverSignature: theirs }, server.address)).toBe(false)
    expect(await verifyServerSignature({ ...unsigned, serverSignature: theirs }, other.address)).toBe(true)
    // Our signature, but another expected signer.
    expect(await verifyServerSignature({ ...unsigned, serverSignature: ours }, other.address)).toBe(false)
    // Our signature over a changed IntentOp.
    expect(
      await verifyServerSignature({ ...unsigned, nonce: '5', serverSignature: ours }, server.address),
    ).toBe(false)
  })

  test('invalid values throw as in viem (bad address, uint out of range, bytes32 of the wrong size)', () => {
    const hasher = createStructHasher({
      T: [
        { name: 'a', type: 'address' },
        { name: 'n', type: 'uint8' },
        { name: 'b', type: 'bytes32' },
      ],
    })
    const ok = { a: sponsor, n: 255, b: `0x${'11'.repeat(32)}` as Hex }
    expect(hasher.hashStruct('T', ok)).toBe(
      hashStruct({
        types: {
          T: [
            { name: 'a', type: 'address' },
            { name: 'n', type: 'uint8' },
            { name: 'b', type: 'bytes32' },
          ],
        },
        primaryType: 'T',
        data: ok,
      }),
    )
    expect(() => hasher.hashStruct('T', { ...ok, a: '0x12' })).toThrow()
    expect(() => hasher.hashStruct('T', { ...ok, n: 256 })).toThrow()
    expect(() => hasher.hashStruct('T', { ...ok, b: '0x11' })).toThrow()
    expect(() => hasher.hashStruct('Nope', ok)).toThrow(/Unknown EIP-712 type/)
  })
})
