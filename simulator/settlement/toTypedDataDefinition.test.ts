import { hashTypedData } from 'viem'
import { describe, expect, it } from 'vitest'
import { addresses } from '../../contracts/addresses'
import { createTypedDataHasher } from '../../lib/eip712'
import { PERMIT_BATCH_WITNESS_TYPES } from '../../spec'
import { permit2TypedData } from '../eip712/typedData'
import { toTypedDataDefinition } from './toTypedDataDefinition'

const element = {
  arbiter: addresses.arbiter,
  chainId: '10',
  idsAndAmounts: [['1', '2']] as [string, string][],
  mandate: {
    recipient: addresses.arbiter,
    tokenOut: [['1', '2']] as [string, string][],
    destinationChainId: '8453',
    fillDeadline: '1',
    minGas: '0',
    preClaimOps: { vt: `0x${'00'.repeat(32)}`, ops: [] },
    destinationOps: { vt: `0x${'00'.repeat(32)}`, ops: [] },
    qualifier: { settlementContext: { fundingMethod: 'PERMIT2' }, encodedVal: '0x' },
  },
}

describe('toTypedDataDefinition', () => {
  it('keeps the domain, so the hash is the EIP-712 digest of the typed data', () => {
    const typedData = permit2TypedData(element as Parameters<typeof permit2TypedData>[0], '7', '9')
    const definition = toTypedDataDefinition(typedData)
    const domain = { name: 'Permit2', chainId: 10, verifyingContract: addresses.permit2 }
    expect(definition.domain).toEqual(domain)
    expect(hashTypedData(definition)).toBe(
      createTypedDataHasher(domain, PERMIT_BATCH_WITNESS_TYPES).hashTypedData(
        'PermitBatchWitnessTransferFrom',
        typedData.message,
      ),
    )
  })

  it('refuses a domain field of the wrong type', () => {
    expect(() =>
      toTypedDataDefinition({ domain: { chainId: 'ten' }, types: {}, primaryType: 'X', message: {} }),
    ).toThrowErrorMatchingInlineSnapshot(
      `[Settlement.InvalidTypedDataDomainError: The EIP-712 domain's chainId is not valid: ten.]`,
    )
  })
})
