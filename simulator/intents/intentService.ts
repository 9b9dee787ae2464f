import { type Address, getAddress, type Hex } from 'viem'
import type {
  BlancIntentStatus,
  BlancSubmitRequest,
  BlancSubmitResponse,
  IntentOp,
  IntentStatus,
  SignedIntentOp,
  SubmissionResult,
  SubmitIntentOperationRequest,
} from '../../conformance/spec'
import type { Faults } from '../faults'
import type { IntentService } from '../http/domainServices'
import { ApiError } from '../http/errorCodes'
import type { StoredQuotedIntent } from '../quoting/types'
import { mandateOf, type SignedIntent } from '../settlement/contractArgs'
import type {
  Settlement,
  SettlementDevnet,
  SettlementPayload,
  SimulationResult,
} from '../settlement/createSettlement'
import { verifySubmission } from '../settlement/verifySubmission'
import { DuplicateIntentError, type IntentRecord, type IntentStore } from './intentStore'
import type { QuoteStore, StoredQuote } from './quoteStore'

/** Parameters of {@link createIntentService}. */
export type CreateIntentServiceParameters = {
  devnet: Pick<SettlementDevnet, 'chain' | 'chains' | 'now'>
  store: IntentStore<SettlementPayload>
  settlement: Settlement
  /** The server key's address: alps intentOps must carry its signature. */
  serverAddress: Address
  /** The blanc quote store the quoting service fills (absent: every blanc submit is 404). */
  quotes?: QuoteStore<StoredQuotedIntent> | undefined
  /** Injected faults (`intents.accept-duplicate`). */
  faults?: Pick<Faults, 'has'> | undefined
}

/** The fields of a signed intentOp that are the IntentOp itself (signatures and options stripped). */
function intentOpOf(signedIntentOp: SignedIntentOp): IntentOp {
  const {
    originSignatures: _o,
    destinationSignature: _d,
    targetExecutionSignature: _t,
    options: _x,
    ...intentOp
  } = signedIntentOp
  return intentOp as IntentOp
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
 * submission (simulator/settlement/verifySubmission.ts), stores it as PENDING, hands it to the
 * relayer, and answers statuses from the intent store.
 */
export function createIntentService(parameters: CreateIntentServiceParameters): IntentService {
  const { devnet, store, settlement, serverAddress, quotes } = parameters

  async function check(signed: SignedIntent, withServerSignature: boolean) {
    const problems = await verifySubmission({
      devnet,
      signed,
      ...(withServerSignature ? { serverAddress } : {}),
    })
    if (problems.length > 0)
      throw new ApiError(
        'VALIDATION_ERROR',
        `The intent was refused: ${problems.map((p) => `${p.field}: ${p.message}`).join(' ')}`,
        { data: { problems } },
      )
  }

  async function accept(signed: SignedIntent, intentId: string | null, version: 'alps' | 'blanc') {
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
      })
      settlement.settle(record.id)
      return record
    } catch (error) {
      if (error instanceof DuplicateIntentError)
        throw new ApiError(
          'CONFLICT',
          `This intent (sponsor and nonce) was already submitted as ${error.existingId}.`,
          {
            data: { id: error.existingId },
          },
        )
      throw error
    }
  }

  function refuseDuplicate(intentOp: IntentOp) {
    const existing = store.all().find((r) => r.dedupeKey === dedupeKeyOf(intentOp))
    if (existing)
      throw new ApiError(
        'CONFLICT',
        `This intent (sponsor and nonce) was already submitted as ${existing.id}.`,
        {
          data: { id: existing.id },
        },
      )
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
      const earlier = faults?.has('intents.alps-accept-duplicate')
        ? store.all().find((r) => r.dedupeKey === dedupeKeyOf(intentOp))
        : undefined
      if (earlier) return { result: { id: earlier.id, status: earlier.status } }
      refuseDuplicate(intentOp)
      // Fault: accept the intent without checking its signatures or contents.
      if (!faults?.has('intents.accept-tampered')) await check(signed, true)
      if (signedIntentOp.options?.dryRun) {
        const simulation = await settlement.simulate(signed)
        return { result: { id: '0', ...dryRunBody(simulation) } }
      }
      const record = await accept(signed, null, 'alps')
      return { result: { id: record.id, status: record.status } }
    },

    async submitQuoted(intentId: string, request: BlancSubmitRequest): Promise<BlancSubmitResponse> {
      const stored: StoredQuote<StoredQuotedIntent> | undefined = quotes?.consume(intentId)
      // Fault: answer a repeated submit as if it were accepted (the rule says 404).
      const earlier = parameters.faults?.has('intents.accept-duplicate')
        ? store.getByIntentId(intentId)
        : undefined
      if (!stored && earlier) return { intentId, id: earlier.id, status: earlier.status }
      if (!stored)
        throw new ApiError(
          'NOT_FOUND',
          `Quote ${intentId} has expired, was already submitted, or was never issued; request a new quote.`,
        )
      const quoted = stored.quote
      const signed: SignedIntent = {
        intentOp: await quoted.signedIntentOp(),
        originSignatures: request.signatures.origin as Hex[],
        destinationSignature: request.signatures.destination as Hex,
        setupOps: quoted.account.setupOps.map((op) => ({ to: getAddress(op.to), data: op.data })),
      }
      try {
        refuseDuplicate(signed.intentOp)
        await check(signed, true)
        if (request.options?.dryRun) {
          const simulation = await settlement.simulate(signed)
          // Nothing was sent: the quote can still be submitted for real.
          quotes?.restore(stored)
          return { intentId, ...dryRunBody(simulation) }
        }
      } catch (error) {
        quotes?.restore(stored)
        throw error
      }
      const record = await accept(signed, intentId, 'blanc')
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
export function alpsStatus(record: IntentRecord<SettlementPayload>): IntentStatus {
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
function fillStatus(record: IntentRecord<SettlementPayload>): string {
  if (record.fill.timestamp !== null) return 'COMPLETED'
  if (record.status === 'PENDING') return 'PENDING'
  if (record.status === 'PRECONFIRMED') return 'PRECONFIRMED'
  return record.status
}

/** blanc GET /intents/{id}: operations per chain, with FILL and CLAIM items (facts §1). */
export function blancStatus(record: IntentRecord<SettlementPayload>): BlancIntentStatus {
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
