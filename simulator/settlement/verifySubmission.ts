import { type Address, getAddress } from 'viem'
import { addresses } from '../../contracts/addresses'
import type { TypedDataJson } from '../eip712/typedData'
import { compactTypedData, permit2TypedData, singleChainOpsTypedData, toOpJson } from '../eip712/typedData'
import type { SubmissionProblem } from '../intents/errors'
import { mandateOf } from '../intents/intentOp'
import type { SignedIntent } from '../intents/types'
import { verifyServerSignature } from '../signing/serverSignature'
import { checkSignature } from './checkSignature'
import { fundingMethodOf, hasDestinationOps } from './contractArgs'
import type { SettlementDevnet } from './types'

/** Parameters of {@link verifySubmission}. */
export type VerifySubmissionParameters = {
  devnet: Pick<SettlementDevnet, 'chain' | 'chains' | 'now'>
  signed: SignedIntent
  /** The server's address (the manifest's `signers.server`); omit to skip the server-signature check. */
  serverAddress?: Address | undefined
}

/**
 * Checks everything about a submission that can be checked before anything is sent: the server
 * signature (so a changed field is refused), the elements (arbiter, chains), the count of origin
 * signatures, each signature against the sponsor over the typed data docs/settlement.md gives
 * (ECDSA for an EOA, ERC-1271 through eth_call for an account with code, or for a counterfactual
 * account after its setup calls in the same eth_call), and the deadlines on the devnet clock.
 * Returns every problem found (empty: the submission may be accepted).
 */
export async function verifySubmission(parameters: VerifySubmissionParameters): Promise<SubmissionProblem[]> {
  const { devnet, signed, serverAddress } = parameters
  const { intentOp } = signed
  const problems: SubmissionProblem[] = []
  const now = devnet.now()
  const running = new Set(devnet.chains.map((c) => c.chainId))

  if (serverAddress && !(await verifyServerSignature(intentOp, serverAddress)))
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
  const checks = intentOp.elements.map(async (element, i) => {
    const typedData =
      fundingMethodOf(element) === 'COMPACT'
        ? compactTypedData(intentOp)
        : permit2TypedData(element, intentOp.nonce, intentOp.expires)
    const check = (data: TypedDataJson) =>
      checkSignature(
        devnet,
        Number(element.chainId),
        sponsor,
        data,
        signed.originSignatures[i]!,
        signed.setupOps,
      )
    let failure = await check(typedData)
    // The public SDK 1.x signs compacts for the older Compact address; our Compact accepts
    // that domain too (contracts/README.md), so the service does as well.
    if (failure && typedData.primaryType === 'MultichainCompact')
      failure = (await check({
        ...typedData,
        domain: { ...typedData.domain, verifyingContract: addresses.compactLegacy },
      }))
        ? failure
        : undefined
    if (failure)
      problems.push({
        field: `originSignatures[${i}]`,
        message: `The ${typedData.primaryType} signature for chain ${element.chainId} is not the sponsor's: ${failure}.`,
      })
  })
  if (hasDestinationOps(intentOp))
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
        )
        if (failure) {
          // The public SDK 1.x (alps) sends its last origin signature as the destination signature
          // unless the settlement layer is INTENT_EXECUTOR: say so, it is the usual cause.
          const same = signed.originSignatures.findIndex(
            (s) => s.toLowerCase() === signed.destinationSignature.toLowerCase(),
          )
          problems.push({
            field: 'destinationSignature',
            message:
              same >= 0
                ? `It is originSignatures[${same}] (an origin signature, which is what the public SDK 1.x sends for alps intents), not a SingleChainOps signature over the destination ops; the IntentExecutor cannot verify it, so this intent's destination executions cannot run. Sign the SingleChainOps typed data (IntentExecutor domain, destination chain, nonce = intent nonce; blanc returns it as signData.destination) or quote without destinationExecutions.`
                : `The SingleChainOps signature for the destination ops is not the sponsor's: ${failure}.`,
          })
        }
      })(),
    )
  await Promise.all(checks)
  return problems.sort((a, b) => a.field.localeCompare(b.field))
}
