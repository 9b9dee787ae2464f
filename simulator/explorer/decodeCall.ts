import { type Abi, type Address, decodeFunctionData, type Hex } from 'viem'
import * as artifacts from '../../contracts/generated/artifacts'
import { placementTable } from '../devnet/placement'
import type { ExplorerDecodedCall } from './schemas'

/** Turns decoded values into JSON: integers as decimal strings, arrays and structs walked. */
export function toJsonValue(value: unknown): unknown {
  if (typeof value === 'bigint') return value.toString()
  if (Array.isArray(value)) return value.map(toJsonValue)
  if (value !== null && typeof value === 'object')
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, toJsonValue(v)]))
  return value
}

/** Our contract at `address` on `chainId` (by the devnet's placement table): its manifest name and ABI. */
export function contractAt(chainId: number, address: Address): { name: string; abi: Abi } | undefined {
  const row = placementTable(chainId).find((r) => r.address.toLowerCase() === address.toLowerCase())
  if (!row) return undefined
  const artifact = (artifacts as Record<string, { abi: Abi }>)[row.artifact]
  return artifact ? { name: row.name, abi: artifact.abi } : undefined
}

/**
 * Decodes a call to one of our contracts by its ABI: the function and its arguments by name.
 * Undefined when `to` is not ours or the data matches no function of its ABI.
 *
 * @example
 * decodeCall(8453, addresses.filler, tx.input) // { contract: 'filler', functionName: 'fill', args: [...] }
 */
export function decodeCall(chainId: number, to: Address, data: Hex): ExplorerDecodedCall | undefined {
  const contract = contractAt(chainId, to)
  if (!contract || data.length < 10) return undefined
  try {
    const { functionName, args } = decodeFunctionData({ abi: contract.abi, data })
    const item = contract.abi.find(
      (entry) =>
        entry.type === 'function' &&
        entry.name === functionName &&
        entry.inputs.length === (args?.length ?? 0),
    )
    const inputs = item?.type === 'function' ? item.inputs : []
    return {
      contract: contract.name,
      functionName,
      args: (args ?? []).map((value, index) => ({
        name: inputs[index]?.name || `arg${index}`,
        type: inputs[index]?.type ?? 'unknown',
        value: toJsonValue(value),
      })),
    }
  } catch {
    return undefined
  }
}
