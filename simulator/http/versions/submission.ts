/** 0x-prefixed hex (viem's Hex; routes do not import viem). */
type Hex = `0x${string}`

import type { BlancSignatures, BlancSubmitResponse, SubmissionResult } from '../../../spec'
import type { AcceptedIntent, QuoteSignatures, SimulationResult } from '../../intents/types'

/**
 * The signatures of a blanc submit (`signatures.origin`, `signatures.destination`, checked by
 * the request schema) as the intent service takes them.
 *
 * @example
 * await intents.submitQuoted(intentId, quoteSignaturesOf(request.body.signatures))
 */
export const quoteSignaturesOf = (signatures: BlancSignatures): QuoteSignatures => ({
  originSignatures: signatures.origin as Hex[],
  destinationSignature: signatures.destination as Hex,
})

/** What a dry run answers in both versions: would it settle, and if not which step fails and why. */
const dryRunBody = (simulation: SimulationResult) => ({
  status: 'DRY_RUN',
  dryRun: true,
  wouldSettle: simulation.wouldSettle,
  ...(simulation.reason ? { reason: simulation.reason } : {}),
  steps: simulation.steps,
})

/**
 * The alps answer of `POST /intent-operations` (spec: Resources › Submission result): the
 * accepted intent's id and status, or a dry run's outcome under the id `0`.
 *
 * @example
 * reply.code(201).send(toAlpsSubmission(await intents.submitOperation(signedIntentOp)))
 */
export function toAlpsSubmission(outcome: AcceptedIntent | { dryRun: SimulationResult }): SubmissionResult {
  if ('dryRun' in outcome) return { result: { id: '0', ...dryRunBody(outcome.dryRun) } }
  return { result: { id: outcome.id, status: outcome.status } }
}

/**
 * The blanc answer of `POST /intents/{intentId}/submit` and `POST /intents` (facts §1: 201
 * `{intentId}`): the quote's intent id with the accepted intent's id and status, or a dry run's
 * outcome.
 *
 * @example
 * reply.code(201).send(toBlancSubmission(intentId, await intents.submitQuoted(intentId, signatures)))
 */
export function toBlancSubmission(
  intentId: string,
  outcome: AcceptedIntent | { dryRun: SimulationResult },
): BlancSubmitResponse {
  if ('dryRun' in outcome) return { intentId, ...dryRunBody(outcome.dryRun) }
  return { intentId, id: outcome.id, status: outcome.status }
}
