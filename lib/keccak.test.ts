import { randomBytes } from 'node:crypto'
import { bytesToHex, keccak256, stringToHex } from 'viem'
import { describe, expect, it } from 'vitest'
import { keccak256Bytes, keccak256Hex, keccak256Into } from './keccak'

describe('keccak256Hex', () => {
  it("equals viem's keccak256 for empty, short, block-sized and long inputs", () => {
    // 135/136/137 straddle keccak256's 136-byte rate; 5000 spans many blocks.
    for (const size of [0, 1, 31, 32, 64, 135, 136, 137, 272, 1000, 5000]) {
      const hex = bytesToHex(randomBytes(size))
      expect(keccak256Hex(hex), `size ${size}`).toBe(keccak256(hex))
      expect(keccak256Bytes(Buffer.from(hex.slice(2), 'hex')), `size ${size}`).toBe(keccak256(hex))
    }
  })

  it('accepts upper-case hex and an odd number of digits as viem does', () => {
    expect(keccak256Hex('0xABCDEF')).toBe(keccak256('0xabcdef'))
    expect(keccak256Hex('0xabc')).toBe(keccak256('0xabc'))
  })

  it('answers as viem for text that is not hex throughout, once the WebAssembly module is ready too', async () => {
    // The module compiles in a few milliseconds from import; this waits well past it.
    await new Promise((resolve) => setTimeout(resolve, 200))
    for (const text of [`0x${'zz'.repeat(32)}`, `0x11${'zz'.repeat(31)}`, '0x1g', '0x 1'] as const)
      expect(keccak256Hex(text), text).toBe(keccak256(text.length % 2 === 0 ? text : `0x0${text.slice(2)}`))
  })

  it('hashes a string through its UTF-8 bytes', () => {
    const text = 'Mandate(Target target,uint128 minGas) — ünïcödé'
    expect(keccak256Bytes(Buffer.from(text, 'utf8'))).toBe(keccak256(stringToHex(text)))
  })

  it('writes the hash as 32 bytes where it is told, also over its own input', () => {
    for (const size of [0, 32, 136, 1000]) {
      const bytes = randomBytes(size)
      const out = Buffer.alloc(80, 0xee)
      keccak256Into(bytes, out, 7)
      expect(bytesToHex(out.subarray(7, 39)), `size ${size}`).toBe(keccak256(bytes))
      expect(out[6]).toBe(0xee)
      expect(out[39]).toBe(0xee)
      // In place (the typed-data digest hashes its buffer into its own start).
      const own = Buffer.from(bytes)
      if (size >= 32) {
        keccak256Into(own, own, 0)
        expect(bytesToHex(own.subarray(0, 32))).toBe(keccak256(bytes))
      }
    }
  })
})
