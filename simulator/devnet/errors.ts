import { BaseError } from '../../spec/BaseError'

/** A devnet that cannot start or do what it was asked (a duplicate chain, a port in use, a bad state dir). */
export class DevnetError extends BaseError {
  override name = 'Devnet.Error'
}
