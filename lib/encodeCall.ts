import {
  type Abi,
  type ContractFunctionName,
  type EncodeFunctionDataParameters,
  encodeFunctionData,
  type Hex,
  prepareEncodeFunctionData,
} from 'viem'

/** viem's prepared form of one function: `abi: [item]` and the 4-byte selector as `functionName`. */
type Prepared = { abi: Abi; functionName: Hex }

/** Per ABI (a module constant, never changed), per function name: the prepared function, or null when overloaded. */
const preparedByAbi = new WeakMap<object, Map<string, Prepared | null>>()

/** viem's `prepareEncodeFunctionData` of `name` in `abi`, once per ABI and name; null when it is overloaded. */
function preparedOf(abi: readonly unknown[], name: string): Prepared | null {
  let byName = preparedByAbi.get(abi)
  if (!byName) {
    byName = new Map()
    preparedByAbi.set(abi, byName)
  }
  let prepared = byName.get(name)
  if (prepared === undefined) {
    const named = (abi as Abi).filter((item) => 'name' in item && item.name === name)
    // Overloads: viem picks one by the arguments of each call, so those keep the call-by-call path.
    prepared =
      named.length === 1 && named[0]!.type === 'function'
        ? (prepareEncodeFunctionData({ abi: abi as Abi, functionName: name }) as unknown as Prepared)
        : null
    byName.set(name, prepared)
  }
  return prepared
}

/**
 * viem's `encodeFunctionData`, with the function's ABI item and selector computed once per ABI
 * and function name instead of on every call (viem's `prepareEncodeFunctionData` formats the
 * signature and hashes it with keccak each time). The arguments are encoded by viem's
 * `encodeFunctionData` itself, through its own path for an already prepared function, so the
 * calldata and the errors for bad arguments are viem's. An overloaded name, a selector given as
 * `functionName`, or no name at all go to `encodeFunctionData` unchanged. `abi` must not change
 * after its first use (module constants and generated artifacts only).
 *
 * @example
 * const data = encodeCall({ abi: erc20Abi, functionName: 'balanceOf', args: [account] })
 */
export function encodeCall<
  const abi extends Abi | readonly unknown[],
  functionName extends ContractFunctionName<abi> | undefined = undefined,
>(parameters: EncodeFunctionDataParameters<abi, functionName>): Hex {
  const { abi, functionName, args } = parameters as {
    abi: readonly unknown[]
    functionName?: string
    args?: readonly unknown[]
  }
  const prepared =
    typeof functionName === 'string' && !functionName.startsWith('0x') ? preparedOf(abi, functionName) : null
  if (!prepared) return encodeFunctionData(parameters as EncodeFunctionDataParameters)
  return encodeFunctionData({
    abi: prepared.abi,
    functionName: prepared.functionName,
    args,
  } as EncodeFunctionDataParameters)
}
