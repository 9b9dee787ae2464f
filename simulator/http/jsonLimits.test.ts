import { describe, expect, it } from 'vitest'
import { checkJsonLimits } from './jsonLimits'

/** A value nested `depth` levels: objects under `a`, or arrays at index 0. */
const nested = (depth: number, array = false): unknown => {
  let value: unknown = 1
  for (let i = 0; i < depth; i++) value = array ? [value] : { a: value }
  return value
}

describe('checkJsonLimits', () => {
  it('passes values within the limits, scalars and empty containers included', () => {
    for (const value of [1, 'x', null, {}, [], { a: [1, { b: 2 }] }, nested(32), nested(32, true)])
      expect(checkJsonLimits(value)).toBeUndefined()
  })

  it('names the path (its first six keys) of the first value nested too deep', () => {
    expect(checkJsonLimits(nested(33))).toEqual({
      path: 'a.a.a.a.a.a…',
      message: 'Too deep: nested more than 32 levels (limit 32)',
    })
    expect(checkJsonLimits(nested(4, true), 3)?.path).toBe('0.0.0')
    expect(checkJsonLimits({ ok: 1, x: [{ y: { z: {} } }] }, 3)?.path).toBe('x.0.y')
    expect(checkJsonLimits({ x: { y: 1 } }, 1)?.path).toBe('x')
    expect(checkJsonLimits({ x: 1 }, 0)?.path).toBe('')
  })

  it('of several values too deep, names the one in the last member first (as its explicit stack did)', () => {
    expect(checkJsonLimits({ a: { x: {} }, b: [{}, { y: {} }] }, 2)?.path).toBe('b.1')
    expect(checkJsonLimits([[[1]], { k: [[2]] }], 2)?.path).toBe('1.k')
  })

  it('counts every value, scalars and containers alike, against the node limit', () => {
    expect(checkJsonLimits(Array(9).fill(0), 32, 10)).toBeUndefined()
    expect(checkJsonLimits(Array(10).fill(0), 32, 10)).toEqual({
      path: 'body',
      message: 'Too big: the body holds more than 10 JSON values',
    })
    expect(checkJsonLimits({ a: { b: 1, c: [2] } }, 32, 5)).toBeUndefined()
    expect(checkJsonLimits({ a: { b: 1, c: [2, 3] } }, 32, 5)?.path).toBe('body')
  })
})
