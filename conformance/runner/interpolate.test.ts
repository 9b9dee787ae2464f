// biome-ignore-all lint/suspicious/noTemplateCurlyInString: the placeholders are what interpolate reads
import { describe, expect, test } from 'vitest'
import { interpolate, UnknownVariableError } from './interpolate'

describe('interpolate', () => {
  const vars = {
    intentId: '42',
    'fresh.0.address': '0xAbC',
    signed: { destinationSignature: '0xdead', originSignatures: ['0x01', '0x02'] },
  }

  test('a whole placeholder keeps its type; placeholders inside strings are spliced', () => {
    expect(interpolate({ path: '/intents/${intentId}/submit', n: '${signed}' }, vars)).toEqual({
      path: '/intents/42/submit',
      n: vars.signed,
    })
  })

  test('a field or index of a captured object, when no variable has that dotted name', () => {
    expect(interpolate('${signed.destinationSignature}', vars)).toBe('0xdead')
    expect(interpolate('${signed.originSignatures.1}', vars)).toBe('0x02')
    expect(interpolate('${fresh.0.address}', vars)).toBe('0xAbC')
    expect(() => interpolate('${signed.nothing}', vars)).toThrow(UnknownVariableError)
    expect(() => interpolate('${intentId.length}', vars)).toThrow(UnknownVariableError)
  })
})
