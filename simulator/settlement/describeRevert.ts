import { ContractFunctionRevertedError, decodeErrorResult, type Hex, BaseError as ViemBaseError } from 'viem'
import { IntentExecutor } from '../../contracts/generated/artifacts'

const formatArgs = (args: readonly unknown[] | undefined) =>
  (args ?? [])
    .map((a) =>
      typeof a === 'bigint'
        ? a.toString()
        : typeof a === 'string'
          ? a
          : JSON.stringify(a, (_k, v) => (typeof v === 'bigint' ? v.toString() : v)),
    )
    .join(', ')

/** Decodes the `reason` bytes of `DestinationOpsFailed(bytes)` with the IntentExecutor's ABI. */
function describeInner(reason: Hex): string {
  try {
    const decoded = decodeErrorResult({ abi: IntentExecutor.abi, data: reason })
    if (decoded.errorName === 'ExecutionFailed') {
      const [account, inner] = decoded.args as readonly [string, Hex]
      return `ExecutionFailed(${account}, ${inner === '0x' ? 'no reason' : inner})`
    }
    return `${decoded.errorName}(${formatArgs(decoded.args as readonly unknown[])})`
  } catch {
    return reason === '0x' ? 'no reason' : reason
  }
}

/** Which error a revert is, by name, when the ABI knows it. */
export function revertErrorName(error: unknown): string | undefined {
  if (!(error instanceof ViemBaseError)) return undefined
  const reverted = error.walk((e) => e instanceof ContractFunctionRevertedError)
  return reverted instanceof ContractFunctionRevertedError ? reverted.data?.errorName : undefined
}

/**
 * A one-line description of why a contract call reverted, decoded with the settlement ABIs:
 * `DestinationOpsFailed → InvalidSignature()`, `AlreadyFilled(0x…)`, or viem's short message.
 */
export function describeRevert(error: unknown): string {
  if (!(error instanceof ViemBaseError)) return error instanceof Error ? error.message : String(error)
  const reverted = error.walk((e) => e instanceof ContractFunctionRevertedError)
  if (reverted instanceof ContractFunctionRevertedError) {
    const data = reverted.data
    if (data?.errorName === 'DestinationOpsFailed') {
      const [reason] = data.args as readonly [Hex]
      return `DestinationOpsFailed → ${describeInner(reason)}`
    }
    if (data) return `${data.errorName}(${formatArgs(data.args as readonly unknown[] | undefined)})`
    if (reverted.reason) return reverted.reason
    return reverted.shortMessage
  }
  return error.shortMessage
}
