import { ContractFunctionRevertedError, BaseError as ViemBaseError } from 'viem'
import { RpcHttpError } from '../../lib/keepAliveTransport'

/** True for errors a retry may cure (the node was unreachable), as opposed to a revert. */
export function isTransient(error: unknown): boolean {
  if (!(error instanceof ViemBaseError)) return false
  if (error.walk((e) => e instanceof ContractFunctionRevertedError) instanceof ContractFunctionRevertedError)
    return false
  // The devnet's transport (keepAliveTransport): no answer, an HTTP error, a refused connection.
  if (error.walk((e) => e instanceof RpcHttpError)) return true
  return /HttpRequestError|TimeoutError|fetch failed|ECONNREFUSED|ECONNRESET|socket/i.test(
    `${error.name} ${error.message}`,
  )
}
