import { randomBytes } from 'node:crypto'
import { bytesToHex, keccak256, stringToHex } from 'viem'
import { describe, expect, it } from 'vitest'
import { keccak256Bytes, keccak256Hex } from './keccak'

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

  it('hashes a string through its UTF-8 bytes', () => {
    const text = 'Mandate(Target target,uint128 minGas) — ünïcödé'
    expect(keccak256Bytes(Buffer.from(text, 'utf8'))).toBe(keccak256(stringToHex(text)))
  })
})
