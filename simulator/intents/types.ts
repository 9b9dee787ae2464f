import type { Address, Hex } from 'viem'
import type {
  BlancSubmitRequest,
  BlancSubmitResponse,
  IntentOp,
  SubmissionResult,
  SubmitIntentOperationRequest,
} from '../../spec'
import type { SubmissionProblem } from './errors'
import type { IntentRecord } from './intentStore'

/** Accepts signed intents and reports their status. */
export interface IntentService {
  /** POST /intent-operations (alps): answered with 201. */
  submitOperation(request: SubmitIntentOperationRequest): Promise<SubmissionResult>
  /** POST /intents/{intentId}/submit and POST /intents (blanc): answered with 201; an unknown quote throws `Intent.QuoteNotFoundError`. */
  submitQuoted(intentId: string, request: BlancSubmitRequest): Promise<BlancSubmitResponse>
  /** The intent of an id (`GET /intent-operation/{id}`); undefined → 404. */
  getIntent(id: string): Promise<IntentRecord<SignedIntent> | undefined>
  /** The intent of a quoted intentId, or else of an id (`GET /intents/{id}`); undefined → 404. */
  findIntent(idOrIntentId: string): Promise<IntentRecord<SignedIntent> | undefined>
}

/** A submitted intent as the service keeps it: the IntentOp and the caller's signatures. */
export type SignedIntent = {
  intentOp: IntentOp
  originSignatures: Hex[]
  destinationSignature: Hex
  /** The account's setup calls (deployment), from `signedMetadata.account.setupOps`. */
  setupOps: { to: Address; data: Hex }[]
}

/** One step of a simulated settlement. */
export type SimulatedStep = {
  step: 'setup' | 'fill' | 'claim'
  chainId: number
  ok: boolean
  gas?: string | undefined
  error?: string | undefined
}

/** What a dry run answers: would the intent settle, and if not, which step fails and why. */
export type SimulationResult = { wouldSettle: boolean; reason?: string | undefined; steps: SimulatedStep[] }

/** What the intent service needs of the relayer (simulator/settlement implements it). */
export interface Relayer {
  /** Starts settling an accepted (PENDING) intent in the background. */
  settle(id: string): void
  /** eth_call / eth_estimateGas of every step, nothing sent. */
  simulate(signed: SignedIntent): Promise<SimulationResult>
}

/**
 * Checks a submission before it is accepted (signatures, server signature, contents,
 * deadlines); an empty answer means it may be accepted. The composition root binds the server
 * key it checks against.
 */
export type VerifySubmission = (signed: SignedIntent) => Promise<SubmissionProblem[]>
