import { BaseError } from '../../spec/BaseError'

/** A setup or register request the schemas accept but this devnet cannot honour (unknown chain or token). */
export class InvalidConfigurationError extends BaseError {
  override name = 'DepositProcessor.InvalidConfigurationError'
  readonly path: string
  constructor(path: string, message: string) {
    super(`${path}: ${message}`, { data: { path }, docsPath: 'docs/deposit-processor.md' })
    this.path = path
  }
}

/** The account is already registered by another API key; one account has one owner. */
export class AccountTakenError extends BaseError {
  override name = 'DepositProcessor.AccountTakenError'
  constructor(account: string) {
    super(`Account ${account} is already registered by another API key.`, {
      docsPath: 'docs/deposit-processor.md',
    })
  }
}

/** A state file of the processor (`deposit-processor.json`, `webhook-outbox.jsonl`) could not be read: a startup failure. */
export { StateFileError } from '../util/persistence'
