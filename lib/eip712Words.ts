import { type Hex, isAddress } from 'viem'
import { keccak256Into } from './keccak'

/**
 * EIP-712 `encodeData` written straight into bytes: the 32-byte word of each atomic value, and
 * keccak256 of the bytes of `bytes`, `string` and arrays, as viem's `hashStruct` encodes them
 * (through `encodeAbiParameters`), without building hex strings.
 *
 * Why by hand: viem's `encodeAbiParameters` prepares, pads and concatenates a hex string per
 * value, and each nested struct's hash goes hex -> bytes again for keccak; for the server
 * signature of a two-element IntentOp (~30 structs and arrays) that was ~200 µs per digest warm,
 * ~900-1100 µs cold (a fresh process's first hundred), of which the keccaks themselves
 * (WebAssembly, lib/keccak.ts) were ~45 µs. Written into one buffer per struct: ~90 µs warm,
 * ~300-650 µs cold; the hex words one by one (the previous fast path) took ~155 µs warm
 * (`npx tsx scripts/bench/domainMicro.ts --tree T`, BENCHMARKS.md, s7domain's section).
 *
 * A writer only takes values whose encoding is beyond doubt: canonical hex of the right size,
 * integers in range as bigints, safe integers or decimal strings, booleans, lower-case or
 * checksummed addresses (viem's own `isAddress`), strings. For anything else it returns false,
 * and the caller hashes the whole struct again by viem's encoder (lib/eip712.ts), which gives
 * viem's result or throws viem's error. eip712Words.test.ts compares both on many random and
 * odd inputs.
 */

type Field = { readonly name: string; readonly type: string }

/** Writes one field's 32-byte word at `offset` of `out`; false when the fast path does not take the value. */
export type WordWriter = (value: unknown, out: Buffer, offset: number) => boolean

const LOWER_ADDRESS = /^0x[0-9a-f]{40}$/
const DECIMAL = /^-?[0-9]{1,80}$/
const INTEGER =
  /^(u?)int(8|16|24|32|40|48|56|64|72|80|88|96|104|112|120|128|136|144|152|160|168|176|184|192|200|208|216|224|232|240|248|256)$/
const BYTES_N = /^bytes([1-9]|1[0-9]|2[0-9]|3[0-2])$/
const TWO_256 = 1n << 256n
const SMALL = 0xffffffffffffn

const refuse: WordWriter = () => false

/** Mixed-case addresses whose checksum viem's isAddress accepted (a pure function: remembered, bounded). */
const checksummed = new Set<string>()

function writeAddress(value: unknown, out: Buffer, offset: number): boolean {
  if (typeof value !== 'string' || value.length !== 42) return false
  // viem's encodeAddress refuses what isAddress (strict: the checksum of mixed case) refuses.
  if (!LOWER_ADDRESS.test(value) && !checksummed.has(value)) {
    if (!isAddress(value)) return false
    if (checksummed.size >= 4096) checksummed.clear()
    checksummed.add(value)
  }
  out.fill(0, offset, offset + 12)
  out.write(value.slice(2), offset + 12, 20, 'hex')
  return true
}

function writeBool(value: unknown, out: Buffer, offset: number): boolean {
  if (typeof value !== 'boolean') return false
  out.fill(0, offset, offset + 31)
  out[offset + 31] = value ? 1 : 0
  return true
}

/** The value of an integer field as viem reads it, or undefined when the fast path leaves it to viem. */
function integerOf(value: unknown): bigint | undefined {
  if (typeof value === 'bigint') return value
  if (typeof value === 'number') return Number.isSafeInteger(value) ? BigInt(value) : undefined
  if (typeof value === 'string' && DECIMAL.test(value)) return BigInt(value)
  return undefined
}

function integerWriter(signed: boolean, bits: number): WordWriter {
  const max = (1n << BigInt(signed ? bits - 1 : bits)) - 1n
  const min = signed ? -max - 1n : 0n
  return (value, out, offset) => {
    const v = integerOf(value)
    if (v === undefined || v > max || v < min) return false
    if (v >= 0n && v <= SMALL) {
      out.fill(0, offset, offset + 26)
      out.writeUIntBE(Number(v), offset + 26, 6)
    } else out.write((v < 0n ? TWO_256 + v : v).toString(16).padStart(64, '0'), offset, 32, 'hex')
    return true
  }
}

function bytesNWriter(size: number): WordWriter {
  return (value, out, offset) => {
    if (typeof value !== 'string' || value.length !== 2 + 2 * size || !value.startsWith('0x')) return false
    // Buffer.write stops at the first character that is not hex: fewer bytes = not hex.
    if (out.write(value.slice(2), offset, size, 'hex') !== size) return false
    out.fill(0, offset + size, offset + 32)
    return true
  }
}

/** The writer of an atomic type (address, bool, (u)intN, bytesN); one that refuses every value for any other. */
export function atomicWriter(type: string): WordWriter {
  if (type === 'address') return writeAddress
  if (type === 'bool') return writeBool
  const integer = INTEGER.exec(type)
  if (integer) return integerWriter(integer[1] !== 'u', Number(integer[2]))
  const bytes = BYTES_N.exec(type)
  if (bytes) return bytesNWriter(Number(bytes[1]))
  return refuse
}

/** `bytes`: keccak256 of the hex's bytes (even-length 0x hex only). */
export function writeBytesHash(value: unknown, out: Buffer, offset: number): boolean {
  if (typeof value !== 'string' || value.length % 2 !== 0 || !value.startsWith('0x')) return false
  const bytes = Buffer.from(value.slice(2), 'hex')
  if (bytes.length * 2 !== value.length - 2) return false
  keccak256Into(bytes, out, offset)
  return true
}

/** keccak256 of short strings (settlement layers, funding methods, names): pure, so remembered. */
const stringHashes = new Map<string, Buffer>()

/** `string`: keccak256 of its UTF-8 bytes (as viem's `toHex(string)`: TextEncoder, lone surrogates as U+FFFD). */
export function writeStringHash(value: unknown, out: Buffer, offset: number): boolean {
  if (typeof value !== 'string') return false
  if (value.length > 64) {
    keccak256Into(Buffer.from(value, 'utf8'), out, offset)
    return true
  }
  let hash = stringHashes.get(value)
  if (hash === undefined) {
    hash = Buffer.allocUnsafe(32)
    keccak256Into(Buffer.from(value, 'utf8'), hash, 0)
    if (stringHashes.size >= 1024) stringHashes.clear()
    stringHashes.set(value, hash)
  }
  hash.copy(out, offset)
  return true
}

/** An array of `item`s: keccak256 of the items' words one after the other (EIP-712 arrays, fixed-size or not). */
export function arrayWriter(item: WordWriter): WordWriter {
  return (value, out, offset) => {
    if (!Array.isArray(value)) return false
    const words = Buffer.allocUnsafe(32 * value.length)
    for (let i = 0; i < value.length; i++) if (!item(value[i], words, 32 * i)) return false
    keccak256Into(words, out, offset)
    return true
  }
}

/** What {@link createWordHasher} makes: `hashStruct` into bytes, or false when a writer does not take a value. */
export type WordHasher = {
  /** Writes `hashStruct(primaryType, data)` at `offset` of `out`; false (`out` untouched) when the fast path leaves it to viem. */
  hashInto(primaryType: string, data: Record<string, unknown>, out: Buffer, offset: number): boolean
}

/**
 * The word writers of every struct of `types`, with their type hashes (`keccak256(encodeType)`,
 * computed by the caller). Values `isFrozen` says can never change (lib/eip712.ts's deepFreeze) are
 * hashed once per type.
 *
 * @example
 * const words = createWordHasher(types, typeHashes, isDeepFrozen)
 * const out = Buffer.alloc(32)
 * if (words.hashInto('Mandate', message, out, 0)) console.log(out.toString('hex'))
 */
export function createWordHasher(
  types: Readonly<Record<string, readonly { readonly name: string; readonly type: string }[]>>,
  typeHashes: ReadonlyMap<string, Hex>,
  isFrozen: (value: object) => boolean,
): WordHasher {
  const writers = new Map<string, { typeHash: Buffer; fields: readonly Field[]; writers: WordWriter[] }>()
  const constants = new Map<string, WeakMap<object, Buffer>>()

  const writerOf = (type: string): WordWriter => {
    if (types[type] !== undefined)
      return (value, out, offset) =>
        typeof value === 'object' &&
        value !== null &&
        !Array.isArray(value) &&
        hashInto(type, value as Record<string, unknown>, out, offset)
    if (type === 'bytes') return writeBytesHash
    if (type === 'string') return writeStringHash
    if (type.endsWith(']')) return arrayWriter(writerOf(type.slice(0, type.lastIndexOf('['))))
    return atomicWriter(type)
  }

  function hashInto(
    primaryType: string,
    data: Record<string, unknown>,
    out: Buffer,
    offset: number,
  ): boolean {
    const struct = writers.get(primaryType)
    if (!struct) return false
    const frozen = Object.isFrozen(data) && isFrozen(data)
    if (frozen) {
      const known = constants.get(primaryType)?.get(data)
      if (known) {
        known.copy(out, offset)
        return true
      }
    }
    const { fields } = struct
    const encoded = Buffer.allocUnsafe(32 * (fields.length + 1))
    struct.typeHash.copy(encoded, 0)
    for (let i = 0; i < fields.length; i++)
      if (!(struct.writers[i] as WordWriter)(data[(fields[i] as Field).name], encoded, 32 * (i + 1)))
        return false
    keccak256Into(encoded, out, offset)
    if (frozen) {
      let byValue = constants.get(primaryType)
      if (!byValue) {
        byValue = new WeakMap()
        constants.set(primaryType, byValue)
      }
      byValue.set(data, Buffer.from(out.subarray(offset, offset + 32)))
    }
    return true
  }

  for (const [name, fields] of Object.entries(types))
    writers.set(name, {
      typeHash: Buffer.from((typeHashes.get(name) as Hex).slice(2), 'hex'),
      fields,
      writers: fields.map((f) => writerOf(f.type)),
    })
  return { hashInto }
}
