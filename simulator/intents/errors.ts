import { BaseError } from '../../spec/BaseError'

const docsPath = 'docs/settlement.md'

/** One reason a submission is refused: which check (`serverSignature`, `originSignatures[1]`, `expires`, …), and what it found. */
export type SubmissionProblem = { field: string; message: string }

/** The submission's signatures or contents do not match what it claims; nothing was stored. */
export class SubmissionRefusedError extends BaseError {
  override name = 'Intent.SubmissionRefusedError'
  readonly problems: readonly SubmissionProblem[]
  constructor(problems: readonly SubmissionProblem[]) {
    super(`The intent was refused: ${problems.map((p) => `${p.field}: ${p.message}`).join(' ')}`, {
      data: { problems },
      docsPath,
    })
    this.problems = problems
  }
}

/** The same intent (sponsor and nonce) was submitted before. */
export class DuplicateSubmissionError extends BaseError {
  override name = 'Intent.DuplicateSubmissionError'
  readonly existingId: string
  constructor(existingId: string) {
    super(`This intent (sponsor and nonce) was already submitted as ${existingId}.`, {
      data: { id: existingId },
      docsPath,
    })
    this.existingId = existingId
  }
}

/** A blanc submit names a quote the quote store does not hold (expired, used, or never issued). */
export class QuoteNotFoundError extends BaseError {
  override name = 'Intent.QuoteNotFoundError'
  constructor(intentId: string) {
    super(`Quote ${intentId} has expired, was already submitted, or was never issued; request a new quote.`, {
      data: { intentId },
      docsPath,
    })
  }
}
