import { type Address, getAddress, type Hex } from 'viem'
import { addresses } from '../../contracts/addresses'
import { hashTypedData } from '../../lib/hashTypedData'
import type { TypedDataJson } from '../eip712/typedData'
import { compactTypedData, permit2TypedData, singleChainOpsTypedData, toOpJson } from '../eip712/typedData'
import type { SubmissionProblem } from '../intents/errors'
import { mandateOf } from '../intents/intentOp'
import type { SignedIntent } from '../intents/types'
import { verifyServerSignature } from '../signing/serverSignature'
import { checkSignature } from './checkSignature'
import { fundingMethodOf, hasDestinationOps } from './contractArgs'
import { originSignatureIndex } from './fillMandateArgs'
import { toTypedDataDefinition } from './toTypedDataDefinition'
import type { SettlementDevnet } from './types'

/** Parameters of {@link verifySubmission}. */
export type VerifySubmissionParameters = {
  devnet: Pick<SettlementDevnet, 'chain' | 'chains' | 'now'>
  signed: SignedIntent
  /** The server's address (the manifest's `signers.server`): who must have signed `serverSignature`. */
  serverAddress: Address
  /**
   * True for a blanc submit: the destination signature signs `signData.destination` (the
   * SingleChainOps over the destination ops, empty or not) and is checked even when the intent
   * has no destination ops. An alps intent without destination ops has nothing for it to authorize.
   */
  destinationAlwaysSigned?: boolean | undefined
}

/**
 * Checks everything about a submission that can be checked before anything is sent: the server
 * signature (so a changed field is refused), the elements (arbiter, chains), the count of origin
 * signatures, each signature against the sponsor over the typed data docs/settlement.md gives
 * (ECDSA for an EOA, ERC-1271 through eth_call for an account with code, or for a counterfactual
 * account after its setup calls in the same eth_call), the destination signature on the
 * destination chain (a repeated origin signature over its element's Mandate, or a SingleChainOps
 * signature over the destination ops; for blanc also when there are none), and the deadlines on
 * the devnet clock.
 * Returns every problem found (empty: the submission may be accepted).
 */
export async function verifySubmission(parameters: VerifySubmissionParameters): Promise<SubmissionProblem[]> {
  const { devnet, signed, serverAddress, destinationAlwaysSigned = false } = parameters
  const { intentOp } = signed
  const problems: SubmissionProblem[] = []
  const now = devnet.now()
  const running = new Set(devnet.chains.map((c) => c.chainId))

  if (!(await verifyServerSignature(intentOp, serverAddress)))
    problems.push({
      field: 'serverSignature',
      message: `The server signature does not match this intentOp (a signed field was changed, or it was not signed by ${serverAddress}).`,
    })

  const mandate = mandateOf(intentOp)
  const destination = Number(mandate.destinationChainId)
  if (!running.has(destination))
    problems.push({
      field: 'mandate.destinationChainId',
      message: `Chain ${destination} is not running on this devnet.`,
    })
  intentOp.elements.forEach((element, i) => {
    if (getAddress(element.arbiter) !== addresses.arbiter)
      problems.push({ field: `elements[${i}].arbiter`, message: `The arbiter must be ${addresses.arbiter}.` })
    if (!running.has(Number(element.chainId)))
      problems.push({
        field: `elements[${i}].chainId`,
        message: `Chain ${element.chainId} is not running on this devnet.`,
      })
    const method = fundingMethodOf(element)
    if (method !== 'COMPACT' && method !== 'PERMIT2')
      problems.push({
        field: `elements[${i}].mandate.qualifier.settlementContext.fundingMethod`,
        message: `Funding method ${method} cannot be settled (COMPACT or PERMIT2).`,
      })
    const m = element.mandate
    if (
      m.recipient.toLowerCase() !== mandate.recipient.toLowerCase() ||
      m.destinationChainId !== mandate.destinationChainId ||
      m.fillDeadline !== mandate.fillDeadline ||
      JSON.stringify(m.tokenOut) !== JSON.stringify(mandate.tokenOut)
    )
      problems.push({
        field: `elements[${i}].mandate`,
        message: 'Every element must carry the same target as element 0.',
      })
  })
  const originChains = intentOp.elements.map((e) => e.chainId)
  if (new Set(originChains).size !== originChains.length)
    problems.push({ field: 'elements', message: 'At most one element per origin chain.' })

  if (BigInt(intentOp.expires) <= BigInt(now))
    problems.push({
      field: 'expires',
      message: `The intent expired at ${intentOp.expires} (devnet time ${now}).`,
    })
  if (BigInt(mandate.fillDeadline) <= BigInt(now))
    problems.push({
      field: 'mandate.fillDeadline',
      message: `The fill deadline ${mandate.fillDeadline} has passed (devnet time ${now}).`,
    })

  if (signed.originSignatures.length !== intentOp.elements.length)
    problems.push({
      field: 'originSignatures',
      message: `Expected ${intentOp.elements.length} origin signature(s), one per element; got ${signed.originSignatures.length}.`,
    })
  if (problems.length > 0) return problems

  const sponsor = getAddress(intentOp.sponsor)
  /** The EIP-7702 delegate the intent's authorizations name for a chain (chain id 0 = any chain). */
  const delegationOn = (chainId: number) => {
    const found = (intentOp.signedAuthorizations ?? []).find((a) => a.chainId === chainId || a.chainId === 0)
    return found ? getAddress(found.address) : undefined
  }
  // Each element's origin typed data and its digest, made once for this submission: a COMPACT
  // intent's elements (and a repeated destination signature) all sign the same MultichainCompact.
  const originData = new Map<unknown, TypedDataJson>()
  const originDataOf = (element: (typeof intentOp.elements)[number]) => {
    const key = fundingMethodOf(element) === 'COMPACT' ? 'COMPACT' : element
    let data = originData.get(key)
    if (!data) {
      data = originTypedData(intentOp, element)
      originData.set(key, data)
    }
    return data
  }
  const digests = new Map<TypedDataJson, Hex>()
  const digestOf = (data: TypedDataJson) => {
    let digest = digests.get(data)
    if (digest === undefined) {
      digest = hashTypedData(toTypedDataDefinition(data))
      digests.set(data, digest)
    }
    return digest
  }
  /** undefined when `signature` is the sponsor's over the origin typed data of `element` on `chainId`, else why not. */
  const checkOrigin = async (
    element: (typeof intentOp.elements)[number],
    chainId: number,
    signature: Hex,
  ) => {
    const typedData = originDataOf(element)
    const check = (data: TypedDataJson, digest?: Hex) =>
      checkSignature(
        devnet,
        chainId,
        sponsor,
        data,
        signature,
        signed.setupOps,
        delegationOn(chainId),
        digest,
      )
    const failure = await check(typedData, digestOf(typedData))
    // The public SDK 1.x signs compacts for the older Compact address; our Compact (and the
    // IntentExecutor) accept that domain too (contracts/README.md), so the service does as well.
    if (failure && typedData.primaryType === 'MultichainCompact')
      return (await check({
        ...typedData,
        domain: { ...typedData.domain, verifyingContract: addresses.compactLegacy },
      }))
        ? failure
        : undefined
    return failure
  }
  const checks = intentOp.elements.map(async (element, i) => {
    const failure = await checkOrigin(element, Number(element.chainId), signed.originSignatures[i]!)
    if (failure)
      problems.push({
        field: `originSignatures[${i}]`,
        message: `The ${originTypedData(intentOp, element).primaryType} signature for chain ${element.chainId} is not the sponsor's: ${failure}.`,
      })
  })
  const repeated = originSignatureIndex(signed)
  if (repeated !== undefined)
    checks.push(
      (async () => {
        // The destination signature is an origin signature (the public SDK 1.x): the IntentExecutor
        // verifies it on the destination over the element's Mandate, whose destOps it runs.
        const element = intentOp.elements[repeated]!
        const failure = await checkOrigin(element, destination, signed.destinationSignature)
        if (failure)
          problems.push({
            field: 'destinationSignature',
            message: `It repeats originSignatures[${repeated}], which does not verify on chain ${destination} over elements[${repeated}]'s ${originTypedData(intentOp, element).primaryType} (its Mandate commits to the destination ops): the destination ops or another signed field differ from what the sponsor signed, or the signature is not the sponsor's: ${failure}.`,
          })
      })(),
    )
  else if (destinationAlwaysSigned || hasDestinationOps(intentOp))
    checks.push(
      (async () => {
        const refund = mandate.qualifier.settlementContext.gasRefund
        const typedData = singleChainOpsTypedData({
          account: sponsor,
          nonce: intentOp.nonce,
          destinationChainId: destination,
          op: toOpJson(mandate.destinationOps),
          ...(refund
            ? {
                gasRefund: {
                  token: getAddress(refund.token),
                  exchangeRate: String(refund.exchangeRate),
                  overhead: String(refund.overhead),
                },
              }
            : {}),
        })
        const failure = await checkSignature(
          devnet,
          destination,
          sponsor,
          typedData,
          signed.destinationSignature,
          signed.setupOps,
          delegationOn(destination),
        )
        if (failure)
          problems.push({
            field: 'destinationSignature',
            message: `It is neither one of the origin signatures (whose Mandate commits to the destination ops; what the public SDK 1.x sends) nor the sponsor's SingleChainOps signature over the destination ops (IntentExecutor domain, chain ${destination}, nonce = intent nonce; blanc's signData.destination): ${failure}.`,
          })
      })(),
    )
  await Promise.all(checks)
  return problems.sort((a, b) => a.field.localeCompare(b.field))
}

/** The typed data the sponsor signs for `element` (docs/settlement.md): the MultichainCompact or its Permit2 batch witness. */
function originTypedData(
  intentOp: SignedIntent['intentOp'],
  element: SignedIntent['intentOp']['elements'][number],
) {
  return fundingMethodOf(element) === 'COMPACT'
    ? compactTypedData(intentOp)
    : permit2TypedData(element, intentOp.nonce, intentOp.expires)
}
