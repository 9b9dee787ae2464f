import {
  type AbiParameter,
  concat,
  domainSeparator,
  encodeAbiParameters,
  type Hex,
  type TypedDataDomain,
} from 'viem'
import { keccak256Hex as keccak256, keccak256Bytes } from './keccak'

/**
 * EIP-712 hashing with the constant parts computed once: the same algorithm as viem's
 * `hashStruct` / `hashTypedData` (and built on viem's own `encodeAbiParameters`, `keccak256` and
 * `domainSeparator`; keccak256 by WebAssembly, checked equal to viem's in lib/keccak.test.ts),
 * but every type hash (`keccak256(encodeType(T))`) and every domain separator
 * is computed when the hasher is made, not again for each struct of each message. viem recomputes
 * them for every nested struct, which was most of the cost of a quote's server signature.
 *
 * Equality with viem's `hashStruct` / `hashTypedData` is checked in eip712.test.ts for every typed
 * data the service signs or hands out, so this is a cache, not a second definition of EIP-712.
 * Invalid values (a bad address, an integer out of range, a bytesN of the wrong size) throw, as
 * in viem, because `encodeAbiParameters` refuses them.
 */

/** One field of an EIP-712 struct type. */
export type TypedField = { readonly name: string; readonly type: string }
/** EIP-712 struct types (without `EIP712Domain`). */
export type TypedTypes = Readonly<Record<string, readonly TypedField[]>>

/** `encodeType` of EIP-712: the primary type, then its dependencies sorted by name. */
export function encodeType(primaryType: string, types: TypedTypes): string {
  const deps = new Set<string>()
  const visit = (type: string) => {
    const base = type.replace(/(\[[0-9]*\])+$/, '')
    if (deps.has(base) || types[base] === undefined) return
    deps.add(base)
    for (const field of types[base]) visit(field.type)
  }
  visit(primaryType)
  deps.delete(primaryType)
  return [primaryType, ...[...deps].sort()]
    .map((type) => `${type}(${(types[type] ?? []).map((f) => `${f.type} ${f.name}`).join(',')})`)
    .join('')
}

type Encoder = (value: unknown) => [AbiParameter, unknown]

/** Values made immutable by {@link deepFreeze}: the only ones whose struct hash is remembered. */
const frozenDeep = new WeakSet<object>()

/**
 * Freezes a value and everything in it, and marks it so that struct hashers hash it once per type
 * (it can no longer change). For constants that recur in every quote, such as an empty Op.
 */
export function deepFreeze<T>(value: T): T {
  if (value && typeof value === 'object' && !frozenDeep.has(value)) {
    for (const inner of Object.values(value)) deepFreeze(inner)
    Object.freeze(value)
    frozenDeep.add(value)
  }
  return value
}

const BYTES32: AbiParameter = { type: 'bytes32' }

/** A struct hasher for a fixed set of types: `hashStruct(primaryType, data)` as EIP-712 defines it. */
export type StructHasher = {
  hashStruct(primaryType: string, data: Record<string, unknown>): Hex
  /** `keccak256(encodeType(T))`, computed once. */
  typeHash(primaryType: string): Hex
}

/** Makes a {@link StructHasher} for `types`: type hashes and field encoders are prepared once. */
export function createStructHasher(types: TypedTypes): StructHasher {
  const typeHashes = new Map<string, Hex>()
  const structs = new Map<string, { fields: readonly TypedField[]; encoders: Encoder[] }>()

  const encoderOf = (type: string): Encoder => {
    if (types[type] !== undefined)
      return (value) => [BYTES32, hashStruct(type, value as Record<string, unknown>)]
    if (type === 'bytes') return (value) => [BYTES32, keccak256(value as Hex)]
    if (type === 'string') return (value) => [BYTES32, keccak256Bytes(Buffer.from(value as string, 'utf8'))]
    if (type.endsWith(']')) {
      const item = encoderOf(type.slice(0, type.lastIndexOf('[')))
      return (value) => {
        const pairs = (value as unknown[]).map(item)
        return [
          BYTES32,
          keccak256(
            encodeAbiParameters(
              pairs.map(([t]) => t),
              pairs.map(([, v]) => v),
            ),
          ),
        ]
      }
    }
    const parameter: AbiParameter = { type }
    return (value) => [parameter, value]
  }

  for (const name of Object.keys(types))
    typeHashes.set(name, keccak256Bytes(Buffer.from(encodeType(name, types), 'utf8')))
  for (const [name, fields] of Object.entries(types))
    structs.set(name, { fields, encoders: fields.map((f) => encoderOf(f.type)) })

  // Hashes of deeply frozen values (constants such as an empty Op): they cannot change, so each
  // is hashed once per type. Only ever filled for values frozen all the way down (see deepFreeze).
  const constants = new Map<string, WeakMap<object, Hex>>()

  function hashStruct(primaryType: string, data: Record<string, unknown>): Hex {
    if (Object.isFrozen(data) && frozenDeep.has(data)) {
      let byValue = constants.get(primaryType)
      if (!byValue) {
        byValue = new WeakMap()
        constants.set(primaryType, byValue)
      }
      let hash = byValue.get(data)
      if (hash === undefined) {
        hash = hashFresh(primaryType, data)
        byValue.set(data, hash)
      }
      return hash
    }
    return hashFresh(primaryType, data)
  }

  function hashFresh(primaryType: string, data: Record<string, unknown>): Hex {
    const struct = structs.get(primaryType)
    if (!struct) throw new Error(`Unknown EIP-712 type ${primaryType}.`)
    const params: AbiParameter[] = [BYTES32]
    const values: unknown[] = [typeHashes.get(primaryType)]
    for (let i = 0; i < struct.fields.length; i++) {
      const field = struct.fields[i] as TypedField
      const [param, value] = (struct.encoders[i] as Encoder)(data[field.name])
      params.push(param)
      values.push(value)
    }
    return keccak256(encodeAbiParameters(params, values))
  }

  return {
    hashStruct,
    typeHash: (primaryType) => {
      const hash = typeHashes.get(primaryType)
      if (!hash) throw new Error(`Unknown EIP-712 type ${primaryType}.`)
      return hash
    },
  }
}

/** A typed-data hasher for one domain and one set of types: `hashTypedData` with the domain separator computed once. */
export type TypedDataHasher = StructHasher & {
  readonly domainSeparator: Hex
  /** The EIP-712 digest `keccak256(0x1901 ‖ domainSeparator ‖ hashStruct(message))`. */
  hashTypedData(primaryType: string, message: Record<string, unknown>): Hex
}

/** Makes a {@link TypedDataHasher} for a fixed domain and types (viem derives the domain's own type from its fields). */
export function createTypedDataHasher(domain: TypedDataDomain, types: TypedTypes): TypedDataHasher {
  const structs = createStructHasher(types)
  const separator = domainSeparator({ domain })
  return {
    ...structs,
    domainSeparator: separator,
    hashTypedData: (primaryType, message) =>
      keccak256(concat(['0x1901', separator, structs.hashStruct(primaryType, message)])),
  }
}
