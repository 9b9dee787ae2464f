import { type Address, type Hex, hashStruct, hashTypedData, recoverAddress } from 'viem'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { describe, expect, test } from 'vitest'
import { tokensByChain } from '../../contracts/addresses'
import { createStructHasher, createTypedDataHasher, encodeType } from '../../lib/eip712'
import { toLockId } from '../../lib/lockTag'
import type { IntentOp } from '../../spec/index'
import { DEVNET_LOCK_TAG } from '../devnet/funding'
import { buildIntentOp } from '../quoting/buildIntentOp'
import type { FundingPlan } from '../quoting/planFunding'
import {
  serverSignatureDigest,
  serverSignatureTypedData,
  signServerSignature,
  verifyServerSignature,
} from '../signing/serverSignature'
import { sampleIntentParameters } from './testing/sampleIntent'
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
/** An IntentOp over two origin chains with destination and pre-claim ops, two outputs, metadata. */
const sampleIntent = (method: FundingPlan['method']) =>
  buildIntentOp(
    sampleIntentParameters(
      { tokensByChain, toLockId, DEVNET_LOCK_TAG },
      { method, server, sponsor },
    ) as unknown as Parameters<typeof buildIntentOp>[0],
  )

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
