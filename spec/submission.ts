import { z } from 'zod'
import { Authorization, Element, SignedMetadata } from './alps'
import { Address, Hex, IntegerString } from './common'

/**
 * The submitted intent operation: the fields of IntentOp plus the caller's signatures
 * (spec: Resources › Submitted intent operation). Request side: unknown fields are dropped.
 */
export const SignedIntentOp = z.object({
  sponsor: Address,
  nonce: IntegerString,
  expires: IntegerString,
  elements: z.array(Element).min(1),
  serverSignature: Hex,
  signedMetadata: SignedMetadata,
  targetExecutionNonce: IntegerString,
  signedAuthorizations: z.array(Authorization).optional(),
  recipientSignedAuthorizations: z.array(Authorization).optional(),
  destinationSignature: Hex,
  originSignatures: z.array(Hex).min(1),
  targetExecutionSignature: Hex.optional(),
  options: z.object({ dryRun: z.boolean().optional() }).optional(),
})
export type SignedIntentOp = z.infer<typeof SignedIntentOp>

/** Body of POST /intent-operations (spec: Endpoints › POST /intent-operations). */
export const SubmitIntentOperationRequest = z.object({ signedIntentOp: SignedIntentOp })
export type SubmitIntentOperationRequest = z.infer<typeof SubmitIntentOperationRequest>

/** Submission result, answered with 201 (spec: Resources › Submission result; States). */
export const SubmissionResult = z.looseObject({
  result: z.looseObject({
    id: z.string().regex(/^\d+$/, 'must be a large integer string'),
    status: z.string(),
    dryRun: z.boolean().optional(),
  }),
})
export type SubmissionResult = z.infer<typeof SubmissionResult>
