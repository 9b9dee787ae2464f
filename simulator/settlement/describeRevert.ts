import { ContractFunctionRevertedError, decodeErrorResult, type Hex, BaseError as ViemBaseError } from 'viem'
import {
  IntentArbiter,
  IntentExecutor,
  IntentFiller,
  Permit2,
  TheCompact,
} from '../../contracts/generated/artifacts'

const errorsOf = (abi: readonly { type: string }[]) => abi.filter((item) => item.type === 'error')

/** The filler's ABI plus the executor's errors (the filler wraps them, but a direct revert is possible too). */
export const fillerAbi = [
  ...IntentFiller.abi,
  ...errorsOf(IntentExecutor.abi),
] as unknown as typeof IntentFiller.abi

/** The arbiter's ABI plus the errors of The Compact and Permit2, which its claims bubble up. */
export const arbiterAbi = [
  ...IntentArbiter.abi,
  ...errorsOf(TheCompact.abi),
  // Permit2 and the arbiter may share error names; the arbiter's come first and win.
  ...errorsOf(Permit2.abi).filter(
    (item) =>
      !IntentArbiter.abi.some(
        (a) => a.type === 'error' && 'name' in a && 'name' in item && a.name === item.name,
      ),
  ),
] as unknown as typeof IntentArbiter.abi

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

/** True for errors a retry may cure (the node was unreachable), as opposed to a revert. */
export function isTransient(error: unknown): boolean {
  if (!(error instanceof ViemBaseError)) return false
  if (error.walk((e) => e instanceof ContractFunctionRevertedError) instanceof ContractFunctionRevertedError)
    return false
  return /HttpRequestError|TimeoutError|fetch failed|ECONNREFUSED|ECONNRESET|socket/i.test(
    `${error.name} ${error.message}`,
  )
}
