import { decodeFunctionResult, type Hex } from 'viem'
import * as artifacts from '../../contracts/generated/artifacts'

/** One result of Multicall3's `aggregate3`, as viem decodes it. */
export type Aggregate3Result = { success: boolean; returnData: Hex }

/** Lower-case hex, an even number of digits: the only answers the fast path reads. */
const LOWER_HEX = /^0x(?:[0-9a-f]{2})*$/
/** 56 zero digits: a word whose value fits in 8 hex digits (an offset or a length of this answer). */
const HIGH_ZEROS = '0'.repeat(56)
const WORD_ZERO = '0'.repeat(64)
const WORD_ONE = `${'0'.repeat(63)}1`
const WORD_0X40 = `${'0'.repeat(62)}40`

/**
 * The results of a Multicall3 `aggregate3` answer (`(bool success, bytes returnData)[]`), the
 * same as viem's `decodeFunctionResult` on the Multicall3 ABI, which decodes every answer that
 * is not exactly the canonical encoding Multicall3 returns (and throws where viem throws).
 *
 * Why a hand-written reader for the canonical shape: viem's decoder converts the whole answer to
 * bytes, walks it with a cursor and converts every `returnData` back to hex; in a fresh process
 * (as the simulator child of a conformance run, whose code never gets hot) 120 answers of 13
 * results cost 43-74 ms with viem and 6-12 ms with this (BENCHMARKS.md, "the simulator child's
 * chain work"). decodeAggregate3.test.ts checks it equal to viem on answers of every shape.
 * Anything it does not expect (upper-case digits, an offset out of the canonical order, a flag
 * other than 0 or 1, bytes left over) goes to viem.
 *
 * @example
 * const results = decodeAggregate3(answer) // [{ success: true, returnData: '0x…' }, …]
 */
export function decodeAggregate3(answer: Hex): readonly Aggregate3Result[] {
  return readCanonical(answer) ?? viemDecode(answer)
}

/** viem's decoding of an `aggregate3` answer. */
function viemDecode(answer: Hex): readonly Aggregate3Result[] {
  return decodeFunctionResult({ abi: artifacts.Multicall3.abi, functionName: 'aggregate3', data: answer })
}

/** The results when `answer` is exactly their canonical ABI encoding, else undefined. */
function readCanonical(answer: Hex): Aggregate3Result[] | undefined {
  if (answer.length < 2 + 128 || !LOWER_HEX.test(answer)) return undefined
  // In hex digits from the start of the answer (after `0x`): word k is at 2 + 64k.
  const word = (at: number) => answer.slice(at, at + 64)
  /** A word that fits in 8 hex digits, as a number of BYTES (undefined when it does not fit). */
  const small = (at: number): number | undefined => {
    const text = word(at)
    return text.length === 64 && text.startsWith(HIGH_ZEROS) ? Number.parseInt(text.slice(56), 16) : undefined
  }
  if (small(2) !== 32) return undefined
  const count = small(2 + 64)
  if (count === undefined || 2 + 128 + count * 64 > answer.length) return undefined
  // The array's content (its offsets count from here), then the tuples one after the other.
  const content = 2 + 128
  let next = count * 64
  const results: Aggregate3Result[] = new Array(count)
  for (let i = 0; i < count; i++) {
    const offset = small(content + i * 64)
    if (offset === undefined || offset * 2 !== next) return undefined
    const tuple = content + next
    const flag = word(tuple)
    if ((flag !== WORD_ZERO && flag !== WORD_ONE) || word(tuple + 64) !== WORD_0X40) return undefined
    const length = small(tuple + 128)
    if (length === undefined) return undefined
    const data = tuple + 192
    const padded = Math.ceil(length / 32) * 64
    if (data + padded > answer.length) return undefined
    // The padding after the bytes is not read by viem either.
    results[i] = { success: flag === WORD_ONE, returnData: `0x${answer.slice(data, data + length * 2)}` }
    next = data + padded - content
  }
  return content + next === answer.length ? results : undefined
}
