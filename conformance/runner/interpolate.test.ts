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

describe('interpolate copies', () => {
  test('a part without placeholders is a copy, not the step itself; __proto__ stays an own field', () => {
    const step = JSON.parse(
      '{"body":{"pad":[[0,1],[2]],"__proto__":{"polluted":true},"a":"${intentId}"},"expect":{"x":[1,{"y":"z"}]}}',
    )
    const first = interpolate(step, { intentId: '42' })
    const again = interpolate(step, { intentId: '43' })
    expect(first).toEqual(
      JSON.parse(
        '{"body":{"pad":[[0,1],[2]],"__proto__":{"polluted":true},"a":"42"},"expect":{"x":[1,{"y":"z"}]}}',
      ),
    )
    expect(again.body.a).toBe('43')
    expect(first.expect).not.toBe(step.expect)
    expect(first.expect.x[1]).not.toBe(step.expect.x[1])
    expect(first.body.pad).not.toBe(step.body.pad)
    expect(Object.hasOwn(first.body, '__proto__')).toBe(true)
    expect(Object.getPrototypeOf(first.body)).toBe(Object.prototype)
    expect(({} as { polluted?: boolean }).polluted).toBeUndefined()
  })
})
