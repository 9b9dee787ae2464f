import { FAULT_CATALOGUE, type Faults, UnknownFaultError } from '../../faults/faults'
import type { FaultControl } from '../../http/domainServices'
import { ApiError } from '../../http/errorCodes'

/**
 * The control API's view of a fault registry (`GET`/`POST /_devnet/faults`): its state with the
 * catalogue, and changes checked up front, so a request naming an unknown fault changes nothing
 * and answers 400 VALIDATION_ERROR listing the known ones.
 *
 * @example
 * const services = { ...domain, faults: faultControl(faults) }
 */
export function faultControl(faults: Faults): FaultControl {
  return {
    state: () => ({ enabled: faults.list(), known: FAULT_CATALOGUE }),
    change({ enable, disable, clear }) {
      const unknown = [...enable, ...disable].filter((name) => !(name in FAULT_CATALOGUE))
      if (unknown.length > 0) {
        const error = new UnknownFaultError(unknown)
        throw new ApiError('VALIDATION_ERROR', `${error.shortMessage} ${error.metaMessages?.join(' ')}`, {
          data: error.data,
          cause: error,
        })
      }
      if (clear) faults.clear()
      faults.disable(disable)
      faults.enable(enable)
    },
  }
}
