import type { Address, Hex } from 'viem'
import type {
  BlancIntentStatus,
  BlancSubmitRequest,
  BlancSubmitResponse,
  IntentOp,
  IntentStatus,
  SubmissionResult,
  SubmitIntentOperationRequest,
} from '../../spec'
import type { SubmissionProblem } from './errors'

/** Accepts signed intents and reports their status. */
export interface IntentService {
  /** POST /intent-operations (alps): answered with 201. */
  submitOperation(request: SubmitIntentOperationRequest): Promise<SubmissionResult>
  /** POST /intents/{intentId}/submit and POST /intents (blanc): answered with 201; an unknown quote throws `Intent.QuoteNotFoundError`. */
  submitQuoted(intentId: string, request: BlancSubmitRequest): Promise<BlancSubmitResponse>
  /** GET /intent-operation/{id} (alps); undefined → 404. */
  operationStatus(id: string): Promise<IntentStatus | undefined>
  /** GET /intents/{id} (blanc); undefined → 404. */
  intentStatus(id: string): Promise<BlancIntentStatus | undefined>
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
 * Checks a submission before it is accepted (signatures, contents, deadlines); an empty answer
 * means it may be accepted. `serverAddress`: the key whose server signature the intentOp must
 * carry (undefined skips that check).
 */
export type VerifySubmission = (
  signed: SignedIntent,
  serverAddress: Address | undefined,
) => Promise<SubmissionProblem[]>
