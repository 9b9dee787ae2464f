import { randomFillSync } from 'node:crypto'

/**
 * Random bytes as hex, from a pool refilled 4 KiB at a time by the CSPRNG (`randomFillSync`).
 * A quote takes several small random values (nonces, intent ids); one `randomBytes` call per value
 * cost more than the signature of the quote. The bytes are the same CSPRNG's, handed out once each.
 */
const pool = Buffer.allocUnsafe(4096)
let offset = pool.length

/** `bytes` fresh random bytes as lower-case hex, without 0x (at most 4096 bytes). */
export function randomHex(bytes: number): string {
  if (!Number.isInteger(bytes) || bytes < 0 || bytes > pool.length)
    throw new RangeError(`randomHex takes 0 to ${pool.length} bytes, not ${bytes}.`)
  if (offset + bytes > pool.length) {
    randomFillSync(pool)
    offset = 0
  }
  const hex = pool.toString('hex', offset, offset + bytes)
  offset += bytes
  return hex
}
