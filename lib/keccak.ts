import { createKeccak, type IHasher } from 'hash-wasm'
import { type Hex, keccak256 as viemKeccak256 } from 'viem'

/**
 * keccak256 of hex-encoded bytes, as viem's `keccak256(hex)` returns it (lower-case 0x hex), but
 * computed by WebAssembly (hash-wasm) instead of pure JS. It is the hash of the quote's hot path
 * (EIP-712 struct hashing in lib/eip712.ts: quotes, typed-data signatures and their checks),
 * where it is 4–10× faster than viem's noble-hashes keccak; keccak.test.ts checks it equals
 * viem's on inputs of every size class.
 * Everything else keeps viem's `keccak256`.
 *
 * The WebAssembly module is compiled once, starting when this module is first imported, and one
 * hasher is reused: JavaScript is single-threaded and `init → update → digest` is synchronous, so
 * no call can interleave with another. Until it is compiled (the first milliseconds), viem's
 * keccak answers, with the same result. No top-level await: the package's entry points stay
 * loadable by `require` (Node's require of ES modules refuses one).
 */
let hasher: IHasher | undefined
void createKeccak(256).then((created) => {
  hasher = created
})

/** keccak256 of `data` (0x-prefixed hex bytes) → 0x-prefixed lower-case hex, like viem's `keccak256(data)`. */
export function keccak256Hex(data: Hex): Hex {
  const even = data.length % 2 === 0 ? data : (`0x0${data.slice(2)}` as Hex)
  if (!hasher) return viemKeccak256(even)
  const bytes = Buffer.from(even.slice(2), 'hex')
  // Not hex throughout (Buffer stops decoding at the first other character): viem's answer, as
  // before the WebAssembly module was ready, rather than the hash of a truncated prefix.
  if (bytes.length * 2 !== even.length - 2) return viemKeccak256(even)
  hasher.init()
  hasher.update(bytes)
  return `0x${hasher.digest('hex')}`
}

/** keccak256 of raw bytes (for example a UTF-8 string's bytes) → 0x-prefixed lower-case hex. */
export function keccak256Bytes(data: Uint8Array): Hex {
  if (!hasher) return viemKeccak256(data)
  hasher.init()
  hasher.update(data)
  return `0x${hasher.digest('hex')}`
}

/**
 * keccak256 of raw bytes written as 32 bytes at `offset` of `out`: for hashes that feed other
 * hashes (EIP-712 struct hashing, lib/eip712Words.ts), so no hex string is made in between.
 *
 * @example
 * const word = Buffer.alloc(32)
 * keccak256Into(Buffer.from('abc'), word, 0)
 */
export function keccak256Into(data: Uint8Array, out: Uint8Array, offset: number): void {
  if (!hasher) {
    out.set(viemKeccak256(data, 'bytes'), offset)
    return
  }
  hasher.init()
  hasher.update(data)
  out.set(hasher.digest('binary'), offset)
}
