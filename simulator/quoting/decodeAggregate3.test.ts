import { decodeFunctionResult, encodeFunctionResult, type Hex } from 'viem'
import { describe, expect, it } from 'vitest'
import * as artifacts from '../../contracts/generated/artifacts'
import { type Aggregate3Result, decodeAggregate3 } from './decodeAggregate3'

const encode = (results: readonly Aggregate3Result[]): Hex =>
  encodeFunctionResult({ abi: artifacts.Multicall3.abi, functionName: 'aggregate3', result: results })

/** viem's own decoding, or its error's message. */
const viem = (answer: Hex): unknown => {
  try {
    return decodeFunctionResult({ abi: artifacts.Multicall3.abi, functionName: 'aggregate3', data: answer })
  } catch (error) {
    return (error as Error).message
  }
}
const ours = (answer: Hex): unknown => {
  try {
    return decodeAggregate3(answer)
  } catch (error) {
    return (error as Error).message
  }
}

/** A deterministic pseudo-random generator (the cases are the same on every run). */
function random(seed: number) {
  let state = seed
  return () => {
    state = (state * 1_103_515_245 + 12_345) % 2 ** 31
    return state / 2 ** 31
  }
}

const hexOf = (next: () => number, bytes: number): Hex =>
  `0x${Array.from({ length: bytes }, () =>
    Math.floor(next() * 256)
      .toString(16)
      .padStart(2, '0'),
  ).join('')}`

describe('decodeAggregate3', () => {
  it('decodes canonical answers as viem does: empty, one word, short, long, failed results', () => {
    const next = random(7)
    for (let round = 0; round < 200; round++) {
      const count = Math.floor(next() * 20)
      const results = Array.from({ length: count }, () => ({
        success: next() < 0.8,
        returnData: hexOf(next, [0, 32, 32, 32, 1, 31, 33, 64, 100][Math.floor(next() * 9)]!),
      }))
      const answer = encode(results)
      expect(decodeAggregate3(answer)).toEqual(viem(answer))
      expect(decodeAggregate3(answer)).toEqual(results)
    }
  })

  it('leaves every other answer to viem: the same results, or the same error', () => {
    const canonical = encode([
      { success: true, returnData: `0x${'00'.repeat(31)}07` },
      { success: false, returnData: '0x' },
      { success: true, returnData: '0x1234' },
    ])
    const body = canonical.slice(2)
    const at = (word: number, value: string) =>
      `0x${body.slice(0, word * 64)}${value.padStart(64, '0')}${body.slice(word * 64 + 64)}` as Hex
    const answers: Hex[] = [
      '0x',
      '0x00',
      canonical.toUpperCase().replace('0X', '0x') as Hex,
      `${canonical}00`,
      `${canonical}${'00'.repeat(32)}`,
      canonical.slice(0, -64) as Hex,
      at(0, '40'),
      at(1, '4'),
      at(1, '2'),
      at(1, 'ffffffffff'),
      at(2, '80'),
      at(5, '2'),
      at(6, '60'),
      at(7, '21'),
      at(7, 'ffffffffffffffffff'),
      `0x${'zz'.repeat(200)}` as Hex,
    ]
    for (const answer of answers) expect(ours(answer)).toEqual(viem(answer))
  })
})
