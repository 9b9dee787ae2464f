import { type Address, getAddress, type Hex } from 'viem'
import type {
  BlancIntentStatus,
  BlancSubmitRequest,
  BlancSubmitResponse,
  IntentOp,
  IntentStatus,
  SubmissionResult,
  SubmitIntentOperationRequest,
} from '../../spec'
import type { Faults } from '../faults/faults'
import type { QuoteStore, StoredQuote } from '../quoting/quoteStore'
import type { StoredQuotedIntent } from '../quoting/types'
import { DuplicateSubmissionError, QuoteNotFoundError, SubmissionRefusedError } from './errors'
import { intentOpOf, mandateOf } from './intentOp'
import { DuplicateIntentError, type IntentRecord, type IntentStore } from './intentStore'
import type { IntentService, Relayer, SignedIntent, SimulationResult, VerifySubmission } from './types'

/** Parameters of {@link createIntentService}. */
export type CreateIntentServiceParameters = {
  store: IntentStore<SignedIntent>
  /** Settles accepted intents and dry-runs them (simulator/settlement). */
  relayer: Relayer
  /** The pre-submit check (simulator/settlement/verifySubmission.ts). */
  verify: VerifySubmission
  /** The server key's address: alps intentOps must carry its signature. */
  serverAddress: Address
  /** The blanc quote store the quoting service fills. */
  quotes: QuoteStore<StoredQuotedIntent>
  /** Injected faults (`intents.accept-duplicate`, `intents.alps-accept-duplicate`, `intents.accept-tampered`, `intents.settle-refused-tampered`). */
  faults: Pick<Faults, 'has'>
}

/** What identifies an intent's content: one sponsor never signs two intents with one nonce. */
const dedupeKeyOf = (intentOp: IntentOp) => `${intentOp.sponsor.toLowerCase()}:${BigInt(intentOp.nonce)}`

const dryRunBody = (simulation: SimulationResult) => ({
  status: 'DRY_RUN',
  dryRun: true,
  wouldSettle: simulation.wouldSettle,
  ...(simulation.reason ? { reason: simulation.reason } : {}),
  steps: simulation.steps,
})

/**
 * The intent service behind the submission and status routes (both versions): checks a
 * submission (`verify`), stores it as PENDING, hands it to the relayer, and answers statuses
 * from the intent store. The relayer and the check come from the composition root
 * (simulator/startSimulator.ts), so this folder does not import simulator/settlement.
 */
export function createIntentService(parameters: CreateIntentServiceParameters): IntentService {
  const { store, relayer, verify, serverAddress, quotes } = parameters

  async function check(signed: SignedIntent, withServerSignature: boolean) {
    const problems = await verify(signed, withServerSignature ? serverAddress : undefined)
    if (problems.length > 0) throw new SubmissionRefusedError(problems)
  }

  async function accept(
    signed: SignedIntent,
    intentId: string | null,
    version: 'alps' | 'blanc',
    quotedAt?: number,
  ) {
    const mandate = mandateOf(signed.intentOp)
    try {
      const record = await store.create({
        intentId,
        version,
        sponsor: getAddress(signed.intentOp.sponsor),
        recipient: getAddress(mandate.recipient),
        destinationChainId: Number(mandate.destinationChainId),
        fillDeadline: Number(mandate.fillDeadline),
        dedupeKey: dedupeKeyOf(signed.intentOp),
        payload: signed,
        originChainIds: signed.intentOp.elements.map((e) => Number(e.chainId)),
        ...(quotedAt === undefined ? {} : { quotedAt }),
      })
      relayer.settle(record.id)
      return record
    } catch (error) {
      if (error instanceof DuplicateIntentError) throw new DuplicateSubmissionError(error.existingId)
      throw error
    }
  }

  function refuseDuplicate(intentOp: IntentOp) {
    const existing = store.all().find((r) => r.dedupeKey === dedupeKeyOf(intentOp))
    if (existing) throw new DuplicateSubmissionError(existing.id)
  }

  return {
    async submitOperation(request: SubmitIntentOperationRequest): Promise<SubmissionResult> {
      const { signedIntentOp } = request
      const intentOp = intentOpOf(signedIntentOp)
      const signed: SignedIntent = {
        intentOp,
        originSignatures: signedIntentOp.originSignatures as Hex[],
        destinationSignature: signedIntentOp.destinationSignature as Hex,
        setupOps: (intentOp.signedMetadata.account.setupOps ?? []).map((op) => ({
          to: getAddress(op.to),
          data: op.data as Hex,
        })),
      }
      const faults = parameters.faults
      // Fault: answer a repeated alps submission as accepted (the rule says 409).
      const earlier = faults.has('intents.alps-accept-duplicate')
        ? store.all().find((r) => r.dedupeKey === dedupeKeyOf(intentOp))
        : undefined
      if (earlier) return { result: { id: earlier.id, status: earlier.status } }
      refuseDuplicate(intentOp)
      // Fault: accept the intent without checking its signatures or contents.
      if (!faults.has('intents.accept-tampered')) {
        try {
          await check(signed, true)
        } catch (error) {
          // Fault: refuse it, yet store it and hand it to the relayer all the same.
          if (
            faults.has('intents.settle-refused-tampered') &&
            error instanceof SubmissionRefusedError &&
            !signedIntentOp.options?.dryRun
          )
            await accept(signed, null, 'alps')
          throw error
        }
      }
      if (signedIntentOp.options?.dryRun) {
        const simulation = await relayer.simulate(signed)
        return { result: { id: '0', ...dryRunBody(simulation) } }
      }
      const record = await accept(signed, null, 'alps')
      return { result: { id: record.id, status: record.status } }
    },

    async submitQuoted(intentId: string, request: BlancSubmitRequest): Promise<BlancSubmitResponse> {
      // Only looked at here: an invalid or dry-run submit must not hold the quote while it is
      // checked, or a valid submit racing it would answer a false 404.
      const stored: StoredQuote<StoredQuotedIntent> | undefined = quotes.get(intentId)
      // Fault: answer a repeated submit as if it were accepted (the rule says 404).
      const earlier = parameters.faults.has('intents.accept-duplicate')
        ? store.getByIntentId(intentId)
        : undefined
      if (!stored && earlier) return { intentId, id: earlier.id, status: earlier.status }
      if (!stored) throw new QuoteNotFoundError(intentId)
      const quoted = stored.quote
      const signed: SignedIntent = {
        intentOp: await quoted.signedIntentOp(),
        originSignatures: request.signatures.origin as Hex[],
        destinationSignature: request.signatures.destination as Hex,
        setupOps: quoted.account.setupOps.map((op) => ({ to: getAddress(op.to), data: op.data })),
      }
      refuseDuplicate(signed.intentOp)
      await check(signed, true)
      if (request.options?.dryRun) {
        // Nothing was sent and nothing taken: the quote can still be submitted for real.
        const simulation = await relayer.simulate(signed)
        return { intentId, ...dryRunBody(simulation) }
      }
      // Consumed only now, by a submit that passed every check: of two valid racing submits,
      // the first to get here wins and the other answers 404 (the quote was already submitted).
      if (!quotes.consume(intentId)) {
        const winner = parameters.faults.has('intents.accept-duplicate')
          ? store.getByIntentId(intentId)
          : undefined
        if (winner) return { intentId, id: winner.id, status: winner.status }
        throw new QuoteNotFoundError(intentId)
      }
      const record = await accept(signed, intentId, 'blanc', quoted.quotedAt)
      return { intentId, id: record.id, status: record.status }
    },

    async operationStatus(id: string): Promise<IntentStatus | undefined> {
      const record = store.get(id)
      return record ? alpsStatus(record) : undefined
    },

    async intentStatus(id: string): Promise<BlancIntentStatus | undefined> {
      const record = store.getByIntentId(id) ?? store.get(id)
      return record ? blancStatus(record) : undefined
    },
  }
}

/** alps GET /intent-operation/{id} (facts §1). */
export function alpsStatus(record: IntentRecord<SignedIntent>): IntentStatus {
  return {
    id: record.id,
    status: record.status,
    fillTimestamp: record.fill.timestamp,
    fillTransactionHash: record.fill.txHash,
    destinationChainId: record.destinationChainId,
    userAddress: record.sponsor,
    recipient: record.recipient,
    claims: record.claims.map((c) => ({
      chainId: c.chainId,
      status: c.status,
      claimTimestamp: c.timestamp,
      claimTransactionHash: c.txHash,
    })),
    ...(record.failure ? { failureReason: `${record.failure.step}: ${record.failure.reason}` } : {}),
  }
}

/** The FILL item's status, from the intent's. */
function fillStatus(record: IntentRecord<SignedIntent>): string {
  if (record.fill.timestamp !== null) return 'COMPLETED'
  if (record.status === 'PENDING') return 'PENDING'
  if (record.status === 'PRECONFIRMED') return 'PRECONFIRMED'
  return record.status
}

/** blanc GET /intents/{id}: operations per chain, with FILL and CLAIM items (facts §1). */
export function blancStatus(record: IntentRecord<SignedIntent>): BlancIntentStatus {
  type Item = { type: 'CLAIM' | 'FILL'; status: string; txHash: Hex | null; timestamp: number | null }
  const operations = new Map<number, { chain: number; items: Item[] }>()
  const at = (chain: number) => {
    let op = operations.get(chain)
    if (!op) {
      op = { chain, items: [] }
      operations.set(chain, op)
    }
    return op
  }
  for (const claim of record.claims)
    at(claim.chainId).items.push({
      type: 'CLAIM',
      status: claim.status,
      txHash: claim.txHash,
      timestamp: claim.timestamp,
    })
  at(record.destinationChainId).items.push({
    type: 'FILL',
    status: fillStatus(record),
    txHash: record.fill.txHash,
    timestamp: record.fill.timestamp,
  })
  return {
    intentId: record.intentId ?? record.id,
    id: record.id,
    status: record.status,
    operations: [...operations.values()],
    ...(record.failure ? { failureReason: `${record.failure.step}: ${record.failure.reason}` } : {}),
  }
}
