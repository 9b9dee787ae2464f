import { describe, expect, it } from 'vitest'
import { randomHex } from './random'

describe('randomHex', () => {
  it('hands out the asked number of bytes, never the same bytes twice, across pool refills', () => {
    const seen = new Set<string>()
    for (let i = 0; i < 2000; i++) {
      const hex = randomHex(16)
      expect(hex).toMatch(/^[0-9a-f]{32}$/)
      expect(seen.has(hex)).toBe(false)
      seen.add(hex)
    }
    expect(randomHex(31)).toHaveLength(62)
    expect(randomHex(0)).toBe('')
  })

  it('refuses sizes it cannot serve', () => {
    expect(() => randomHex(5000)).toThrow(RangeError)
    expect(() => randomHex(-1)).toThrow(RangeError)
  })
})
