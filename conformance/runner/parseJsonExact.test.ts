import { describe, expect, test } from 'vitest'
import { parseJsonExact } from './parseJsonExact'

describe('parseJsonExact', () => {
  test('an integer beyond 2^53 becomes its exact decimal string; others stay numbers', () => {
    const id = '21888242871839275222246405745257275088548364400416034343698204186575808495617'
    expect(parseJsonExact(`{"id":${id},"n":[1,-2,3.5,1e3],"s":"9007199254740993 \\" ${id}"}`)).toEqual({
      id,
      n: [1, -2, 3.5, 1000],
      s: `9007199254740993 " ${id}`,
    })
    expect(parseJsonExact('-9007199254740993')).toBe('-9007199254740993')
  })

  test('after white space, a comma or a bracket; long digit runs in strings or hex stay as they are', () => {
    expect(parseJsonExact('{"a": 9007199254740993,"b":[1,\n\t-9007199254740993]}')).toEqual({
      a: '9007199254740993',
      b: [1, '-9007199254740993'],
    })
    expect(
      parseJsonExact('{"h":"0x12345678901234567890","n":9007199254740991,"s":"a 12345678901234567"}'),
    ).toEqual({ h: '0x12345678901234567890', n: 9007199254740991, s: 'a 12345678901234567' })
  })

  test('invalid JSON still throws', () => {
    expect(() => parseJsonExact('{"a":')).toThrow()
  })
})
