import { BaseError } from '../../spec/BaseError'

/**
 * Thrown by a step that finds the scenario cannot be carried out on this target (e.g. an expiry
 * too long to wait out); the scenario is then not applicable, its short message the reason.
 */
export class NotApplicableError extends BaseError {
  override name = 'Conformance.NotApplicableError'
}
