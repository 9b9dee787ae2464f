import type { Hex } from 'viem'
import { getAddress } from 'viem'
import { addresses } from '../../contracts/addresses'
import type { SignedIntent } from '../intents/types'
import { compactHashes, fundingMethodOf, hasDestinationOps, toMandateArg } from './contractArgs'

/** `OriginAuthorization.kind` (contracts/src/executor/OriginAuthorization.sol). */
export const ORIGIN_KIND = { COMPACT: 0, PERMIT2: 1 } as const

/**
 * The index of the origin signature the destination signature repeats (the last one when several
 * are equal), when the intent has destination ops: the public SDK 1.x sends its last origin
 * signature as `destinationSignature`, and its Mandate witness authorizes the destination ops
 * (docs/settlement.md, "Which signature covers what"). Undefined: the destination signature is
 * its own (a SingleChainOps signature, as blanc's `signData.destination`).
 */
export function originSignatureIndex(signed: SignedIntent): number | undefined {
  if (!hasDestinationOps(signed.intentOp)) return undefined
  const destination = signed.destinationSignature.toLowerCase()
  const index = signed.originSignatures.findLastIndex((s) => s.toLowerCase() === destination)
  return index >= 0 ? index : undefined
}

/**
 * `IntentFiller.fillMandate(sponsor, nonce, mandate, destination)` arguments: element `index`'s
 * Mandate (its Target is the fill's) and the origin typed data its signature covers.
 */
export function fillMandateArgs(signed: SignedIntent, index: number) {
  const { intentOp } = signed
  const element = intentOp.elements[index]
  if (!element) throw new Error(`The intent has no element ${index}.`)
  const compact = fundingMethodOf(element) === 'COMPACT'
  const first = intentOp.elements[0]!
  const signature: Hex = signed.destinationSignature
  return [
    getAddress(intentOp.sponsor),
    BigInt(intentOp.nonce),
    toMandateArg(element.mandate),
    {
      executor: addresses.intentExecutor,
      authorization: {
        kind: compact ? ORIGIN_KIND.COMPACT : ORIGIN_KIND.PERMIT2,
        domainChainId: BigInt(compact ? first.chainId : element.chainId),
        expires: BigInt(intentOp.expires),
        arbiter: getAddress(element.arbiter),
        elementChainId: BigInt(element.chainId),
        idsAndAmounts: element.idsAndAmounts.map(
          ([id, amount]) => [BigInt(id), BigInt(amount)] as readonly [bigint, bigint],
        ),
        elementIndex: BigInt(compact ? index : 0),
        otherElements: compact ? compactHashes(intentOp).elementHashes.filter((_, i) => i !== index) : [],
      },
      signature,
    },
  ] as const
}
