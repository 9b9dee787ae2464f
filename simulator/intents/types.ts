import type { Address, Hex } from 'viem'
import type { IntentOp, SignedIntentOp } from '../../spec'
import type { SubmissionProblem } from './errors'
import type { IntentRecord } from './intentStore'
import type { IntentStatus } from './lifecycle'

/**
 * Accepts signed intents, dry-runs them and reports their status. Version-neutral: the routes
 * (simulator/http/versions/submission.ts, intentStatus.ts) shape the alps and blanc answers.
 */
export interface IntentService {
  /**
   * Checks an intentOp the caller built and signed (`POST /intent-operations`), stores it as
   * PENDING and hands it to the relayer; a refused one throws `Intent.SubmissionRefusedError`, a
   * second submission of its content `Intent.DuplicateSubmissionError`.
   */
  submitOperation(signedIntentOp: SignedIntentOp): Promise<AcceptedIntent>
  /** The same checks as {@link IntentService.submitOperation}, then a dry run of its settlement: nothing is sent or stored. */
  simulateOperation(signedIntentOp: SignedIntentOp): Promise<SimulationResult>
  /**
   * Checks the caller's signatures over a quote the service keeps (`POST /intents/{intentId}/submit`,
   * `POST /intents`), takes the quote and accepts its intent; an unknown, expired or taken quote
   * throws `Intent.QuoteNotFoundError`.
   */
  submitQuoted(intentId: string, signatures: QuoteSignatures): Promise<AcceptedIntent>
  /** The same checks as {@link IntentService.submitQuoted}, then a dry run; the quote stays to be submitted. */
  simulateQuoted(intentId: string, signatures: QuoteSignatures): Promise<SimulationResult>
  /** The intent of an id (`GET /intent-operation/{id}`); undefined → 404. */
  getIntent(id: string): Promise<IntentRecord<SignedIntent> | undefined>
  /** The intent of a quoted intentId, or else of an id (`GET /intents/{id}`); undefined → 404. */
  findIntent(idOrIntentId: string): Promise<IntentRecord<SignedIntent> | undefined>
}

/** An accepted intent as it was when accepted: its id and its status then (PENDING). */
export type AcceptedIntent = { id: string; status: IntentStatus }

/** The caller's signatures over a kept quote's typed data: one per origin chain, and the destination's. */
export type QuoteSignatures = { originSignatures: Hex[]; destinationSignature: Hex }

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
