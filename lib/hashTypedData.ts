import {
  getTypesForEIP712Domain,
  type Hex,
  type TypedDataDefinition,
  type TypedDataDomain,
  validateTypedData,
  hashStruct as viemHashStruct,
  hashTypedData as viemHashTypedData,
} from 'viem'
import {
  createStructHasher,
  createTypedDataHasher,
  isDeepFrozen,
  type StructHasher,
  type TypedDataHasher,
  type TypedTypes,
} from './eip712'

/** The typed data {@link hashTypedData} hashes: viem's definition, its types known only at run time. */
export type AnyTypedDataDefinition = TypedDataDefinition<Record<string, unknown>, string>

/** Hashers by domain and types (JSON), made once each: a run signs and checks the same few shapes. */
const hashers = new Map<string, TypedDataHasher>()
/** Past this many shapes the remembered hashers are dropped (a client may send any types). */
const MAX_HASHERS = 256

/** A struct type name or a field's type as viem and lib/eip712.ts both read it: a word, maybe arrays of it. */
const TYPE_NAME = /^\w+$/
const FIELD_TYPE = /^\w+(\[\d*\])*$/
const HEX = /^0x[0-9a-fA-F]*$/

/**
 * viem's `hashTypedData`, to the very same digest, with every type hash and the domain separator
 * computed once per shape of typed data and keccak256 by WebAssembly (lib/eip712.ts): viem
 * recomputes each type hash for every struct of every message in pure JS, which was most of the
 * CPU of a typed-data signature (the conformance runner's intents and permits) and of the
 * simulator's signature check at submit. viem's validation runs first, unchanged.
 *
 * Only typed data both read alike takes the fast path: `EIP712Domain` among the types only as
 * the domain's fields make it (as wallets take typed data), never as the primary type or a
 * field's type; type names that are words, and values of the JSON kinds the types name (hex
 * `bytes`, `string` strings, objects for structs, arrays for arrays); anything else, and any
 * error on the fast path, is hashed by viem itself, so a bad value throws viem's own error.
 * lib/hashTypedData.test.ts checks equality with viem on the service's typed data and on random
 * and odd shapes.
 *
 * @example
 * const digest = hashTypedData({ domain, types, primaryType: 'Mandate', message })
 */
export function hashTypedData(parameters: AnyTypedDataDefinition): Hex {
  const {
    domain = {},
    types,
    primaryType,
    message,
  } = parameters as {
    domain?: TypedDataDomain
    types: Record<string, readonly { name: string; type: string }[]>
    primaryType: string
    message: Record<string, unknown>
  }
  try {
    const domainType = getTypesForEIP712Domain({ domain })
    // Typed data as wallets take it names the domain's type among its types; viem hashes the
    // domain by that one, the same separator when it is the one the domain's fields make.
    const { EIP712Domain: named, ...structTypes } = types
    if (named !== undefined && !sameFields(named, domainType)) return viemHashTypedData(parameters)
    if (!fastPathFits(structTypes, primaryType, message, types)) return viemHashTypedData(parameters)
    validateTypedData({
      domain,
      message,
      primaryType,
      types: { EIP712Domain: domainType, ...types },
    } as AnyTypedDataDefinition)
    return hasherFor(domain, structTypes, types).hashTypedData(primaryType, message)
  } catch {
    // viem's own result, or its own error.
    return viemHashTypedData(parameters)
  }
}

/** Parameters of {@link hashStruct}: viem's. */
export type HashStructParameters = {
  types: Record<string, readonly { name: string; type: string }[]>
  primaryType: string
  data: Record<string, unknown>
}

/**
 * viem's `hashStruct`, to the very same hash, with the type hashes computed once per set of types
 * and keccak256 by WebAssembly, as {@link hashTypedData} (the same conditions; anything else, and
 * any error, goes to viem's own). A Compact claim's hashes (simulator/settlement/contractArgs.ts).
 *
 * @example
 * const claimHash = hashStruct({ types, primaryType: 'MultichainCompact', data: message })
 */
export function hashStruct(parameters: HashStructParameters): Hex {
  const { types, primaryType, data } = parameters
  try {
    if (Object.hasOwn(types, 'EIP712Domain') || !fastPathFits(types, primaryType, data, types))
      return viemHashStruct(parameters)
    return structHasherFor(types).hashStruct(primaryType, data)
  } catch {
    return viemHashStruct(parameters)
  }
}

/** Struct hashers by types (JSON), as {@link hashers}. */
const structHashers = new Map<string, StructHasher>()

/** Struct hashers of deeply frozen types, by identity (no JSON key to build): they cannot change. */
const frozenStructHashers = new WeakMap<object, StructHasher>()

function structHasherFor(types: TypedTypes): StructHasher {
  if (isDeepFrozen(types)) return remembered(frozenStructHashers, types, () => createStructHasher(types))
  return remembered(structHashers, JSON.stringify(types), () => createStructHasher(types))
}

/** Hashers by the identity of deeply frozen `types` (the service's own typed data), then by domain: no JSON key to build. */
const frozenHashers = new WeakMap<object, Map<string, TypedDataHasher>>()

function hasherFor(domain: TypedDataDomain, types: TypedTypes, original: object): TypedDataHasher {
  const domainKey = JSON.stringify(domain, (_, value) => (typeof value === 'bigint' ? `${value}n` : value))
  const make = () => createTypedDataHasher(domain, types)
  if (isDeepFrozen(original))
    return remembered(
      remembered(frozenHashers, original, () => new Map()),
      domainKey,
      make,
    )
  // Types hold no bigints (fastPathFits: names and types are strings); the domain may.
  return remembered(hashers, `${domainKey}\n${JSON.stringify(types)}`, make)
}

/**
 * The value `map` holds for `key`, made by `make` the first time; a Map of {@link MAX_HASHERS}
 * is emptied before it takes another (a WeakMap's keys go with their objects).
 */
function remembered<K, V>(
  map: { get(key: K): V | undefined; set(key: K, value: V): unknown },
  key: K,
  make: () => V,
): V {
  let value = map.get(key)
  if (value === undefined) {
    if (map instanceof Map && map.size >= MAX_HASHERS) map.clear()
    value = make()
    map.set(key, value)
  }
  return value
}

/** Whether two struct types list the same fields (names and types) in the same order. */
function sameFields(
  a: readonly { name: string; type: string }[] | unknown,
  b: readonly { name: string; type: string }[],
): boolean {
  return (
    Array.isArray(a) &&
    a.length === b.length &&
    a.every((field, i) => field?.name === b[i]!.name && field?.type === b[i]!.type)
  )
}

/** Whether viem and lib/eip712.ts read this typed data alike (see {@link hashTypedData}). */
function fastPathFits(
  types: Record<string, readonly { name: string; type: string }[]>,
  primaryType: string,
  message: unknown,
  /** The deeply frozen object `types` was taken from, if any: its type checks are then remembered. */
  original?: object,
): boolean {
  if (primaryType === 'EIP712Domain' || !Object.hasOwn(types, primaryType)) return false
  if (!typesFit(types, original)) return false
  return valueFits(types, primaryType, message, 0)
}

/** Deeply frozen types (the service's own typed data) whose names and field types fit: they cannot change. */
const fittingFrozenTypes = new WeakSet<object>()

/** Whether every type name is a word and every field a name and a type as both read them. */
function typesFit(
  types: Record<string, readonly { name: string; type: string }[]>,
  original?: object,
): boolean {
  if (original !== undefined && fittingFrozenTypes.has(original)) return true
  for (const [name, fields] of Object.entries(types)) {
    if (!TYPE_NAME.test(name) || !Array.isArray(fields)) return false
    for (const field of fields)
      if (
        typeof field?.name !== 'string' ||
        typeof field.type !== 'string' ||
        !FIELD_TYPE.test(field.type) ||
        field.type.startsWith('EIP712Domain')
      )
        return false
  }
  if (original !== undefined && isDeepFrozen(original)) fittingFrozenTypes.add(original)
  return true
}

/** Whether a value is of the JSON kind its type names, all the way down. */
function valueFits(
  types: Record<string, readonly { name: string; type: string }[]>,
  type: string,
  value: unknown,
  depth: number,
): boolean {
  if (depth > 64) return false
  if (type.endsWith(']')) {
    if (!Array.isArray(value)) return false
    const item = type.slice(0, type.lastIndexOf('['))
    return value.every((v) => valueFits(types, item, v, depth + 1))
  }
  const struct = types[type]
  if (struct) {
    if (typeof value !== 'object' || value === null || Array.isArray(value)) return false
    const record = value as Record<string, unknown>
    return struct.every((field) => valueFits(types, field.type, record[field.name], depth + 1))
  }
  if (type === 'bytes') return typeof value === 'string' && HEX.test(value)
  if (type === 'string') return typeof value === 'string'
  // Atomic types: both hand the value to viem's encodeAbiParameters as it is.
  return true
}
