import { type Hex, hashTypedData, recoverTypedDataAddress } from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { describe, expect, test } from 'vitest'
import { addresses } from '../../contracts/addresses'
// The simulator's builders, only to cross-check the runner's own (the runner never uses them).
import {
  compactTypedData,
  permit2TypedData,
  singleChainOpsTypedData as simulatorSingleChainOps,
} from '../../simulator/eip712/typedData'
import type { IntentOp } from '../../spec'
import {
  CANONICAL_SIGNING_CONTRACTS,
  intentOpTypedData,
  SignIntentOpError,
  signIntentOp,
} from './signIntentOp'

// Anvil's first default account.
const account = privateKeyToAccount('0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80')
const LOCK_TAG = '0x0a0000000000000000000001'
const lockId = (token: string) => BigInt(`${LOCK_TAG}${token.slice(2)}`).toString()
const USDC_1 = '0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48'
const USDC_8453 = '0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913'
const execution = { to: USDC_8453, value: '7', data: '0xa9059cbb00' }

function intentOp(method: 'COMPACT' | 'PERMIT2', destinationOps: boolean): IntentOp {
  const mandate = {
    recipient: account.address,
    tokenOut: [[lockId(USDC_8453), '70000000']],
    destinationChainId: '8453',
    fillDeadline: '1800000900',
    preClaimOps: { vt: `0x${'00'.repeat(32)}`, ops: [execution] },
    destinationOps: { vt: `0x${'00'.repeat(32)}`, ops: destinationOps ? [execution] : [] },
    qualifier: {
      settlementContext: {
        settlementLayer: 'INTENT_ARBITER',
        fundingMethod: method,
        using7579: false,
        gasRefund: { token: '0x0000000000000000000000000000000000000000', exchangeRate: 0, overhead: 0 },
      },
      encodedVal: '0x1234',
    },
    minGas: destinationOps ? '500000' : '0',
  }
  return {
    sponsor: account.address,
    nonce: '123456789012345678901234567890',
    expires: '1800004500',
    elements: [
      {
        arbiter: addresses.arbiter,
        chainId: '8453',
        idsAndAmounts: [[lockId(USDC_8453), '40000000']],
        mandate,
      },
      { arbiter: addresses.arbiter, chainId: '1', idsAndAmounts: [[lockId(USDC_1), '31000000']], mandate },
    ],
    serverSignature: '0x01',
    signedMetadata: {
      tokenPrices: {},
      gasPrices: {},
      account: { address: account.address, accountType: 'EOA' },
    },
    targetExecutionNonce: '42',
  } as unknown as IntentOp
}

// biome-ignore lint/suspicious/noExplicitAny: typed data in JSON or bigint form, as viem takes both
const digest = (typed: any) => hashTypedData(typed)

describe('intentOpTypedData (built from the IntentOp fields, docs/settlement.md)', () => {
  test('COMPACT: one MultichainCompact per element, equal to the simulator’s', () => {
    const op = intentOp('COMPACT', false)
    const { origin, destination } = intentOpTypedData(op)
    expect(origin).toHaveLength(2)
    for (const data of origin) expect(digest(data)).toBe(digest(compactTypedData(op)))
    expect(origin[0]!.domain).toEqual({
      name: 'The Compact',
      version: '1',
      chainId: 8453,
      verifyingContract: addresses.compact,
    })
    expect(destination).toBeUndefined()
  })

  test('PERMIT2: a PermitBatchWitnessTransferFrom per element on its chain, equal to the simulator’s', () => {
    const op = intentOp('PERMIT2', true)
    const { origin, destination } = intentOpTypedData(op)
    op.elements.forEach((element, i) => {
      expect(digest(origin[i])).toBe(digest(permit2TypedData(element, op.nonce, op.expires)))
      expect(origin[i]!.domain.chainId).toBe(Number(element.chainId))
    })
    expect(digest(destination)).toBe(
      digest(
        simulatorSingleChainOps({
          account: account.address,
          nonce: op.nonce,
          destinationChainId: 8453,
          op: { vt: `0x${'00'.repeat(32)}`, ops: [execution as { to: Hex; value: string; data: Hex }] },
        }),
      ),
    )
  })

  test('the target’s contract addresses go into the domains', () => {
    const other = '0x1111111111111111111111111111111111111111'
    const { origin } = intentOpTypedData(intentOp('COMPACT', false), (name, chainId) =>
      name === 'compact' && chainId === 8453 ? other : CANONICAL_SIGNING_CONTRACTS(name, chainId),
    )
    expect(origin[0]!.domain.verifyingContract).toBe(other)
  })
})

describe('signIntentOp', () => {
  test('signs every element and, without destination ops, repeats the last origin signature', async () => {
    const op = intentOp('COMPACT', false)
    const signed = await signIntentOp(op, account)
    expect(signed.nonce).toBe(op.nonce)
    expect(signed.originSignatures).toHaveLength(2)
    expect(signed.destinationSignature).toBe(signed.originSignatures[1])
    const data = compactTypedData(op)
    // biome-ignore lint/suspicious/noExplicitAny: JSON typed data
    const signer = await recoverTypedDataAddress({ ...(data as any), signature: signed.originSignatures[0]! })
    expect(signer).toBe(account.address)
  })

  test('with destination ops, destinationSignature is the last origin signature, as the SDK 1.x sends', async () => {
    const op = intentOp('PERMIT2', true)
    const signed = await signIntentOp(op, account)
    // The origin signature's Mandate commits to the destination ops; the target verifies it there.
    expect(signed.destinationSignature).toBe(signed.originSignatures.at(-1))
  })

  test('a smart account: each signature is 20 zero bytes (the default validator) then the owner key’s ECDSA over the typed data', async () => {
    // The sponsor is the account (any address): the owner key is not compared with it.
    const op = { ...intentOp('PERMIT2', false), sponsor: '0x000000000000000000000000000000000000dEaD' }
    const signed = await signIntentOp(op, account, undefined, { smartAccount: true })
    for (const [i, signature] of signed.originSignatures.entries()) {
      expect(signature.slice(0, 42)).toBe(`0x${'00'.repeat(20)}`)
      expect(signature).toHaveLength(2 + 85 * 2)
      const data = permit2TypedData(op.elements[i]!, op.nonce, op.expires)
      // biome-ignore lint/suspicious/noExplicitAny: JSON typed data
      const owner = await recoverTypedDataAddress({ ...(data as any), signature: `0x${signature.slice(42)}` })
      expect(owner).toBe(account.address)
    }
    expect(signed.destinationSignature).toBe(signed.originSignatures.at(-1))
  })

  test('refuses another sponsor, an unknown funding method and a value that is not an intentOp', async () => {
    const other = privateKeyToAccount(`0x${'11'.repeat(32)}`)
    await expect(signIntentOp(intentOp('COMPACT', false), other)).rejects.toThrow(/is not the signer/)
    // Unless asked to sign as a wrong signer: the signatures are then the other key's.
    const wrong = await signIntentOp(intentOp('COMPACT', false), other, undefined, { notSponsor: true })
    const right = await signIntentOp(intentOp('COMPACT', false), account)
    expect(wrong.originSignatures).toHaveLength(right.originSignatures.length)
    expect(wrong.originSignatures[0]).not.toBe(right.originSignatures[0])
    const unknown = intentOp('COMPACT', false)
    unknown.elements[1]!.mandate = {
      ...unknown.elements[1]!.mandate,
      qualifier: {
        ...unknown.elements[1]!.mandate.qualifier,
        settlementContext: { settlementLayer: 'X', fundingMethod: 'NO_FUNDING' },
      },
    }
    await expect(signIntentOp(unknown, account)).rejects.toThrow(SignIntentOpError)
    await expect(signIntentOp({ routes: [] }, account)).rejects.toThrow(/not an intentOp/)
  })
})
