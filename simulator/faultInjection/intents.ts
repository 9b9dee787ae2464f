import type { Faults } from '../faults/faults'
import { QuoteNotFoundError, SubmissionRefusedError } from '../intents/errors'
import { intentOpOf } from '../intents/intentOp'
import { acceptIntent, dedupeKeyOf, signedOfOperation } from '../intents/intentService'
import type { IntentStore } from '../intents/intentStore'
import type { IntentService, Relayer, SignedIntent, VerifySubmission } from '../intents/types'

/** What {@link withIntentFaults} needs besides the service: the switchboard, the store and the relayer. */
export type IntentFaultsContext = {
  faults: Pick<Faults, 'has'>
  store: IntentStore<SignedIntent>
  relayer: Relayer
}

/**
 * The intent service with the `intents.*` submission faults around it: a repeated alps
 * submission answered with the first id (`intents.alps-accept-duplicate`), a refused alps
 * submission settled all the same (`intents.settle-refused-tampered`), a repeated blanc submit
 * answered as accepted (`intents.accept-duplicate`). The service itself knows no fault.
 *
 * @example
 * const intents = withIntentFaults(createIntentService(parameters), { faults, store, relayer })
 */
export function withIntentFaults(service: IntentService, context: IntentFaultsContext): IntentService {
  const { faults, store, relayer } = context
  return {
    ...service,
    async submitOperation(signedIntentOp) {
      if (faults.has('intents.alps-accept-duplicate')) {
        const key = dedupeKeyOf(intentOpOf(signedIntentOp))
        const earlier = store.all().find((record) => record.dedupeKey === key)
        if (earlier) return { id: earlier.id, status: earlier.status }
      }
      try {
        return await service.submitOperation(signedIntentOp)
      } catch (error) {
        // Refused, yet stored and handed to the relayer all the same (a dry run is never stored:
        // it is simulateOperation, not wrapped).
        if (faults.has('intents.settle-refused-tampered') && error instanceof SubmissionRefusedError)
          await acceptIntent({ store, relayer }, signedOfOperation(signedIntentOp), { intentId: null })
        throw error
      }
    },
    async submitQuoted(intentId, signatures) {
      try {
        return await service.submitQuoted(intentId, signatures)
      } catch (error) {
        // A quote already submitted (or gone) whose intent exists: answered as if accepted.
        const earlier =
          error instanceof QuoteNotFoundError && faults.has('intents.accept-duplicate')
            ? store.getByIntentId(intentId)
            : undefined
        if (earlier) return { id: earlier.id, status: earlier.status }
        throw error
      }
    },
  }
}

/**
 * The submission checks with `intents.accept-tampered` around them: an alps intentOp (built and
 * held by the caller) is accepted without any check.
 *
 * @example
 * const verify = withVerifyFaults({ operation: check, quoted: check }, faults)
 */
export function withVerifyFaults(
  verify: { operation: VerifySubmission; quoted: VerifySubmission },
  faults: Pick<Faults, 'has'>,
): { operation: VerifySubmission; quoted: VerifySubmission } {
  return {
    ...verify,
    operation: async (signed) => (faults.has('intents.accept-tampered') ? [] : verify.operation(signed)),
  }
}

/**
 * Whether the relayer claims after its fill, with `intents.skip-claims` around it: it fills but
 * never claims, so an intent never reaches COMPLETED.
 *
 * @example
 * createSettlement({ devnet, store, senders, claimAfterFill: claimAfterFill(faults) })
 */
export function claimAfterFill(faults: Pick<Faults, 'has'>): () => boolean {
  return () => !faults.has('intents.skip-claims')
}

/**
 * The pre-submit check with `intents.skip-signature-check`: the origin and destination signature
 * problems are dropped (the server signature and every other check still count).
 *
 * @example
 * const verify = withSignatureFaults((signed) => verifySubmission({ devnet, signed, serverAddress }), faults)
 */
export function withSignatureFaults(verify: VerifySubmission, faults: Pick<Faults, 'has'>): VerifySubmission {
  return async (signed) => {
    const problems = await verify(signed)
    if (!faults.has('intents.skip-signature-check')) return problems
    return problems.filter((p) => !/^(originSignatures|destinationSignature)/.test(p.field))
  }
}
