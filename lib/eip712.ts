import { type AbiParameter, domainSeparator, encodeAbiParameters, type Hex, type TypedDataDomain } from 'viem'
import { createWordHasher } from './eip712Words'
import { keccak256Hex as keccak256, keccak256Bytes, keccak256Into } from './keccak'

/**
 * EIP-712 hashing with the constant parts computed once: the same algorithm as viem's
 * `hashStruct` / `hashTypedData` (and built on viem's own `encodeAbiParameters`, `keccak256` and
 * `domainSeparator`; keccak256 by WebAssembly, checked equal to viem's in lib/keccak.test.ts),
 * but every type hash (`keccak256(encodeType(T))`) and every domain separator
 * is computed when the hasher is made, not again for each struct of each message. viem recomputes
 * them for every nested struct, which was most of the cost of a quote's server signature.
 *
 * Each struct is first encoded by the word writers of lib/eip712Words.ts, straight into bytes
 * (a server digest ~2x less CPU than through `encodeAbiParameters`, see there); whenever a writer
 * does not take a value, the struct is hashed again through viem's `encodeAbiParameters`.
 *
 * Equality with viem's `hashStruct` / `hashTypedData` is checked in eip712.test.ts for every typed
 * data the service signs or hands out, and in eip712Words.test.ts on random and odd values, so
 * this is a cache, not a second definition of EIP-712. Invalid values (a bad address, an integer
 * out of range, a bytesN of the wrong size) throw viem's errors, because the word writers leave
 * them to `encodeAbiParameters`, which refuses them.
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

/**
 * Whether `value` was frozen all the way down by {@link deepFreeze}: it can never change, so
 * anything computed from it alone may be remembered by its identity.
 *
 * @example
 * isDeepFrozen(deepFreeze({ a: [1] })) // true
 */
export function isDeepFrozen(value: object): boolean {
  return frozenDeep.has(value)
}

const BYTES32: AbiParameter = { type: 'bytes32' }

/** A struct hasher for a fixed set of types: `hashStruct(primaryType, data)` as EIP-712 defines it. */
export type StructHasher = {
  hashStruct(primaryType: string, data: Record<string, unknown>): Hex
  /** Writes `hashStruct(primaryType, data)` as 32 bytes at `offset` of `out` (the same hash, no hex in between); always true. */
  hashInto(primaryType: string, data: Record<string, unknown>, out: Buffer, offset: number): boolean
  /** `keccak256(encodeType(T))`, computed once. */
  typeHash(primaryType: string): Hex
}

/** Makes a {@link StructHasher} for `types`: type hashes and field encoders are prepared once. */
export function createStructHasher(types: TypedTypes): StructHasher {
  const typeHashes = new Map<string, Hex>()
  const structs = new Map<string, { fields: readonly TypedField[]; encoders: Encoder[] }>()

  const encoderOf = (type: string): Encoder => {
    if (types[type] !== undefined)
      return (value) => [BYTES32, hashByViem(type, value as Record<string, unknown>)]
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

  const words = createWordHasher(types, typeHashes, isDeepFrozen)

  /** By the word writers when they take every value, else by viem's encoder (its result or its error). */
  function hashStruct(primaryType: string, data: Record<string, unknown>): Hex {
    const out = Buffer.allocUnsafe(32)
    if (words.hashInto(primaryType, data, out, 0)) return `0x${out.toString('hex')}`
    return hashByViem(primaryType, data)
  }

  function hashByViem(primaryType: string, data: Record<string, unknown>): Hex {
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
    hashInto: (primaryType, data, out, offset) => {
      if (!words.hashInto(primaryType, data, out, offset))
        out.write(hashStruct(primaryType, data).slice(2), offset, 32, 'hex')
      return true
    },
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
  // `0x1901 ‖ domainSeparator`, then the message's struct hash is written after it.
  const prefix = Buffer.from(`1901${separator.slice(2)}`, 'hex')
  return {
    ...structs,
    domainSeparator: separator,
    hashTypedData: (primaryType, message) => {
      const digest = Buffer.allocUnsafe(66)
      prefix.copy(digest, 0)
      structs.hashInto(primaryType, message, digest, 34)
      keccak256Into(digest, digest, 0)
      return `0x${digest.toString('hex', 0, 32)}`
    },
  }
}
