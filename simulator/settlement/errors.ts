import { BaseError } from '../../spec/BaseError'

/** A settlement step (setup, fill, claim, approval) could not be done; its short message becomes the intent's `failureReason`. */
export class SettlementStepError extends BaseError {
  override name = 'Settlement.StepError'
}

/** The typed data's domain is not one viem can hash (a field of the wrong type). */
export class InvalidTypedDataDomainError extends BaseError {
  override name = 'Settlement.InvalidTypedDataDomainError'
  constructor(field: string, value: unknown) {
    super(`The EIP-712 domain's ${field} is not valid: ${String(value)}.`)
  }
}
