import { getAddress, type Hex } from 'viem'
import type { IntentOp, SignedIntentOp } from '../../spec'
import type { QuoteStore, StoredQuote } from '../quoting/quoteStore'
import type { StoredQuotedIntent } from '../quoting/types'
import { DuplicateSubmissionError, QuoteNotFoundError, SubmissionRefusedError } from './errors'
import { intentOpOf, mandateOf } from './intentOp'
import { DuplicateIntentError, type IntentRecord, type IntentStore } from './intentStore'
import type {
  AcceptedIntent,
  IntentService,
  QuoteSignatures,
  Relayer,
  SignedIntent,
  VerifySubmission,
} from './types'

/** Parameters of {@link createIntentService}. */
export type CreateIntentServiceParameters = {
  store: IntentStore<SignedIntent>
  /** Settles accepted intents and dry-runs them (simulator/settlement). */
  relayer: Relayer
  /**
   * The pre-submit checks (simulator/settlement/verifySubmission.ts, the server key bound by the
   * composition root): of an intentOp the caller built and holds (`operation`, alps), and of
   * one the service quoted and kept (`quoted`, blanc).
   */
  verify: { operation: VerifySubmission; quoted: VerifySubmission }
  /** The blanc quote store the quoting service fills. */
  quotes: QuoteStore<StoredQuotedIntent>
}

/** What identifies an intent's content: one sponsor never signs two intents with one nonce. */
export const dedupeKeyOf = (intentOp: IntentOp): string =>
  `${intentOp.sponsor.toLowerCase()}:${BigInt(intentOp.nonce)}`

/**
 * The signed intent of an alps submission: the intentOp as the caller sent it, its signatures
 * and the account's setup calls.
 *
 * @example
 * const signed = signedOfOperation(request.signedIntentOp)
 */
export function signedOfOperation(signedIntentOp: SignedIntentOp): SignedIntent {
  const intentOp = intentOpOf(signedIntentOp)
  return {
    intentOp,
    originSignatures: signedIntentOp.originSignatures as Hex[],
    destinationSignature: signedIntentOp.destinationSignature as Hex,
    setupOps: (intentOp.signedMetadata.account.setupOps ?? []).map((op) => ({
      to: getAddress(op.to),
      data: op.data as Hex,
    })),
  }
}

/**
 * Stores a checked submission as PENDING and hands it to the relayer; a second submission of
 * the same content throws `Intent.DuplicateSubmissionError`.
 *
 * @example
 * const record = await acceptIntent({ store, relayer }, signed, { intentId: null })
 */
export async function acceptIntent(
  context: { store: IntentStore<SignedIntent>; relayer: Relayer },
  signed: SignedIntent,
  from: { intentId: string | null; quotedAt?: number | undefined },
): Promise<IntentRecord<SignedIntent>> {
  const mandate = mandateOf(signed.intentOp)
  try {
    const record = await context.store.create({
      intentId: from.intentId,
      sponsor: getAddress(signed.intentOp.sponsor),
      recipient: getAddress(mandate.recipient),
      destinationChainId: Number(mandate.destinationChainId),
      fillDeadline: Number(mandate.fillDeadline),
      dedupeKey: dedupeKeyOf(signed.intentOp),
      payload: signed,
      originChainIds: signed.intentOp.elements.map((e) => Number(e.chainId)),
      ...(from.quotedAt === undefined ? {} : { quotedAt: from.quotedAt }),
    })
    context.relayer.settle(record.id)
    return record
  } catch (error) {
    if (error instanceof DuplicateIntentError) throw new DuplicateSubmissionError(error.existingId)
    throw error
  }
}

/**
 * The intent service behind the submission and status routes (both versions): checks a
 * submission (`verify`), stores it as PENDING, hands it to the relayer, and answers statuses
 * from the intent store. The relayer and the checks come from the composition root
 * (simulator/startSimulator.ts), so this folder does not import simulator/settlement. Its
 * answers are version-neutral: simulator/http/versions shapes them.
 *
 * @example
 * const intents = createIntentService({ store, relayer: settlement, verify, quotes })
 * const { id } = await intents.submitOperation(signedIntentOp)
 */
export function createIntentService(parameters: CreateIntentServiceParameters): IntentService {
  const { store, relayer, verify, quotes } = parameters

  /** Refuses a second submission of the same content, then runs the pre-submit checks. */
  async function check(signed: SignedIntent, verifier: VerifySubmission) {
    const existing = store.all().find((r) => r.dedupeKey === dedupeKeyOf(signed.intentOp))
    if (existing) throw new DuplicateSubmissionError(existing.id)
    const problems = await verifier(signed)
    if (problems.length > 0) throw new SubmissionRefusedError(problems)
  }

  /** The checked operation: the intentOp the caller sent, with its signatures. */
  async function checkedOperation(signedIntentOp: SignedIntentOp): Promise<SignedIntent> {
    const signed = signedOfOperation(signedIntentOp)
    await check(signed, verify.operation)
    return signed
  }

  /**
   * The checked quoted intent: the kept quote's intentOp with the caller's signatures. Only
   * looked at here, not taken: an invalid or dry-run submit must not hold the quote while it is
   * checked, or a valid submit racing it would answer a false 404.
   */
  async function checkedQuote(intentId: string, signatures: QuoteSignatures) {
    const stored: StoredQuote<StoredQuotedIntent> | undefined = quotes.get(intentId)
    if (!stored) throw new QuoteNotFoundError(intentId)
    const quoted = stored.quote
    const signed: SignedIntent = {
      intentOp: await quoted.signedIntentOp(),
      originSignatures: signatures.originSignatures,
      destinationSignature: signatures.destinationSignature,
      setupOps: quoted.account.setupOps.map((op) => ({ to: getAddress(op.to), data: op.data })),
    }
    await check(signed, verify.quoted)
    return { signed, quotedAt: quoted.quotedAt }
  }

  const acceptedOf = (record: IntentRecord<SignedIntent>): AcceptedIntent => ({
    id: record.id,
    status: record.status,
  })

  return {
    async submitOperation(signedIntentOp) {
      const signed = await checkedOperation(signedIntentOp)
      const record = await acceptIntent({ store, relayer }, signed, { intentId: null })
      return acceptedOf(record)
    },

    simulateOperation: async (signedIntentOp) => relayer.simulate(await checkedOperation(signedIntentOp)),

    async submitQuoted(intentId, signatures) {
      const { signed, quotedAt } = await checkedQuote(intentId, signatures)
      // Taken only now, by a submit that passed every check: of two valid racing submits, the
      // first to get here wins and the other answers 404 (the quote was already submitted).
      if (!quotes.consume(intentId)) throw new QuoteNotFoundError(intentId)
      const record = await acceptIntent({ store, relayer }, signed, { intentId, quotedAt })
      return acceptedOf(record)
    },

    // Nothing is sent and nothing taken: the quote can still be submitted for real.
    simulateQuoted: async (intentId, signatures) =>
      relayer.simulate((await checkedQuote(intentId, signatures)).signed),

    getIntent: async (id) => store.get(id),
    findIntent: async (idOrIntentId) => store.getByIntentId(idOrIntentId) ?? store.get(idOrIntentId),
  }
}
