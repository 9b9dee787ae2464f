import { bytesToHex, getAddress, hashStruct as viemHashStruct } from 'viem'
import { describe, expect, it } from 'vitest'
import {
  createStructHasher,
  createTypedDataHasher,
  encodeType,
  isDeepFrozen,
  type TypedTypes,
} from './eip712'
import { createWordHasher } from './eip712Words'
import { keccak256Hex } from './keccak'

/** A small seeded generator: the same inputs at every run, many of them. */
function generator(seed: number, oddOneIn = 6) {
  let state = seed >>> 0
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0
    let t = state
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
  const int = (n: number) => Math.floor(next() * n)
  const bytes = (n: number) => Uint8Array.from({ length: n }, () => int(256))
  const pick = <T>(items: readonly T[]): T => items[int(items.length)] as T
  const oddValues = oddOneIn > 0
  return { int, bytes, pick, oddValues, oddOneIn }
}

type Gen = ReturnType<typeof generator>

const ATOMIC = ['address', 'bool', 'uint8', 'uint64', 'uint128', 'uint256', 'int8', 'int128', 'int256']
const FIXED = ['bytes1', 'bytes4', 'bytes12', 'bytes20', 'bytes32']

/** A value for `type`, usually valid, sometimes of another form or invalid (the fast path must then agree with viem anyway). */
function atomicValue(g: Gen, type: string): unknown {
  const odd = g.oddValues && g.int(g.oddOneIn) === 0
  if (type === 'address') {
    const lower = bytesToHex(g.bytes(20))
    if (!odd) return g.int(2) ? getAddress(lower) : lower
    return g.pick([
      lower.toUpperCase().replace('0X', '0x'),
      lower.slice(0, 40),
      `${lower}00`,
      'nope',
      5,
      undefined,
    ])
  }
  if (type === 'bool') return odd ? g.pick([0, 1, 'true', null]) : g.int(2) === 1
  const integer = /^(u?)int(\d+)$/.exec(type)
  if (integer) {
    const bits = Number(integer[2])
    const signed = integer[1] === ''
    const magnitude =
      (BigInt(bytesToHex(g.bytes(1 + g.int(bits / 8)))) >> BigInt(g.int(8))) %
      2n ** BigInt(signed ? bits - 1 : bits)
    const v = signed && g.int(2) ? -magnitude : magnitude
    if (!odd) return g.pick([v, v.toString(), Number(v % 2n ** 50n), v])
    return g.pick([
      2n ** BigInt(bits),
      -1n,
      `0x${magnitude.toString(16)}`,
      ` ${magnitude}`,
      '',
      1.5,
      2 ** 60,
      Number.NaN,
      `00${magnitude}`,
      true,
      undefined,
    ])
  }
  const fixed = /^bytes(\d+)$/.exec(type)
  if (fixed) {
    const hex = bytesToHex(g.bytes(Number(fixed[1])))
    if (!odd) return g.int(4) ? hex : hex.toUpperCase().replace('0X', '0x')
    return g.pick([hex.slice(0, -1), `${hex}00`, `${hex.slice(0, -2)}zz`, hex.slice(2), '0x', undefined])
  }
  if (type === 'bytes') {
    const hex = bytesToHex(g.bytes(g.pick([0, 1, 31, 32, 33, 100, 700])))
    if (!odd) return hex
    return g.pick([`${hex}a`, hex.toUpperCase().replace('0X', '0x'), '0x', undefined, 7])
  }
  if (type === 'string') {
    if (odd) return g.pick([undefined, 12, '\ud800 lone', 'x'.repeat(65)])
    return g.pick(['', 'COMPACT', 'INTENT_ARBITER', `ünïcode ${g.int(1000)} 🚀`, 'y'.repeat(200)])
  }
  throw new Error(type)
}

const TYPES: TypedTypes = {
  Outer: [
    { name: 'who', type: 'address' },
    { name: 'flag', type: 'bool' },
    { name: 'small', type: 'uint8' },
    { name: 'big', type: 'uint256' },
    { name: 'delta', type: 'int128' },
    { name: 'tag', type: 'bytes12' },
    { name: 'word', type: 'bytes32' },
    { name: 'data', type: 'bytes' },
    { name: 'note', type: 'string' },
    { name: 'inner', type: 'Inner' },
    { name: 'inners', type: 'Inner[]' },
    { name: 'words', type: 'bytes32[2]' },
    { name: 'grid', type: 'uint64[][]' },
    { name: 'notes', type: 'string[]' },
  ],
  Inner: [
    { name: 'token', type: 'address' },
    { name: 'amount', type: 'uint256' },
    { name: 'code', type: 'bytes4' },
    { name: 'leaf', type: 'Leaf' },
  ],
  Leaf: [
    { name: 'v', type: 'int8' },
    { name: 'b', type: 'bytes1' },
    { name: 'n', type: 'int256' },
  ],
}

function structOf(g: Gen, type: string, depth = 0): unknown {
  if (g.oddValues && depth > 0 && g.int(40) === 0) return g.pick([null, undefined, 'x', []])
  const value: Record<string, unknown> = {}
  for (const { name, type: t } of TYPES[type] ?? []) value[name] = fieldOf(g, t, depth + 1)
  if (g.oddValues && g.int(50) === 0) delete value[(TYPES[type] ?? [])[0]?.name ?? '']
  return value
}

function fieldOf(g: Gen, type: string, depth: number): unknown {
  if (type.endsWith(']')) {
    const item = type.slice(0, type.lastIndexOf('['))
    const fixed = /\[(\d+)\]$/.exec(type)
    const length = fixed ? Number(fixed[1]) : g.int(4)
    return Array.from({ length }, () => fieldOf(g, item, depth + 1))
  }
  if (TYPES[type]) return structOf(g, type, depth)
  return atomicValue(g, type)
}

/** viem's hash, or the name of what it threw. */
function viem(primaryType: string, data: unknown): string {
  try {
    return viemHashStruct({ types: TYPES, primaryType, data: data as Record<string, unknown> })
  } catch (error) {
    return `throws ${(error as Error).name}`
  }
}

function ours(hash: (data: Record<string, unknown>) => string, data: unknown): string {
  try {
    return hash(data as Record<string, unknown>)
  } catch (error) {
    return `throws ${(error as Error).name}`
  }
}

describe('EIP-712 word writers equal viem', () => {
  it('take most of 3000 random structs (valid, odd and invalid values), each to viem’s very hash', () => {
    const g = generator(2911, 80)
    const typeHashes = new Map(
      Object.keys(TYPES).map((name) => [
        name,
        keccak256Hex(bytesToHex(Buffer.from(encodeType(name, TYPES)))),
      ]),
    )
    const words = createWordHasher(TYPES, typeHashes, isDeepFrozen)
    let taken = 0
    for (let i = 0; i < 3000; i++) {
      const data = structOf(g, 'Outer')
      const out = Buffer.alloc(32)
      if (!words.hashInto('Outer', data as Record<string, unknown>, out, 0)) continue
      taken++
      // What the fast path takes, viem hashes (it does not throw) to the same bytes.
      expect(`0x${out.toString('hex')}`, JSON.stringify(data, replacer)).toBe(viem('Outer', data))
    }
    // Both kinds occur: most structs are taken, and the odd values make some go to viem.
    expect(taken).toBeGreaterThan(1000)
    expect(taken).toBeLessThan(2900)
  })

  it('hashes 1000 random valid structs (every value form the service and clients send) as viem does', () => {
    const g = generator(29, 0)
    const hasher = createStructHasher(TYPES)
    for (let i = 0; i < 1000; i++) {
      const data = structOf(g, 'Outer')
      expect(
        hasher.hashStruct('Outer', data as Record<string, unknown>),
        JSON.stringify(data, replacer),
      ).toBe(viem('Outer', data))
    }
  })

  it('hashes every atomic kind alone, at its bounds', () => {
    const cases: [string, unknown][] = [
      ...ATOMIC.flatMap((t): [string, unknown][] => {
        const m = /^(u?)int(\d+)$/.exec(t)
        if (!m) return []
        const bits = BigInt(m[2] as string)
        const max = 2n ** (m[1] ? bits : bits - 1n) - 1n
        const min = m[1] ? 0n : -max - 1n
        return [max, min, max + 1n, min - 1n, 0n, -0, '0', `${max}`, `${min}`].map((v) => [t, v])
      }),
      ...FIXED.map((t): [string, unknown] => [t, `0x${'ab'.repeat(Number(t.slice(5)))}`]),
      ['bytes32', `0x${'AB'.repeat(32)}`],
      ['address', '0x0000000000000000000000000000000000000000'],
      ['address', '0xABCDEFABCDEFABCDEFABCDEFABCDEFABCDEFABCD'],
      ['string', '\ud83d'],
    ]
    for (const [type, value] of cases) {
      const types = { T: [{ name: 'v', type }] }
      let expected: string
      try {
        expected = viemHashStruct({ types, primaryType: 'T', data: { v: value } })
      } catch {
        expected = 'throws'
      }
      let got: string
      try {
        got = createStructHasher(types).hashStruct('T', { v: value })
      } catch {
        got = 'throws'
      }
      expect(got, `${type} ${String(value)}`).toBe(expected)
    }
  })

  it('digests typed data as viem’s hashTypedData (0x1901 ‖ separator ‖ struct hash)', async () => {
    const { hashTypedData } = await import('viem')
    const g = generator(7, 0)
    const domain = {
      name: 'D',
      version: '1',
      chainId: 8453,
      verifyingContract: getAddress(bytesToHex(g.bytes(20))),
    }
    const hasher = createTypedDataHasher(domain, TYPES)
    for (let i = 0; i < 200; i++) {
      const message = structOf(g, 'Inner') as Record<string, unknown>
      let expected: string
      try {
        expected = hashTypedData({ domain, types: TYPES, primaryType: 'Inner', message })
      } catch {
        expected = 'throws'
      }
      expect(ours((m) => hasher.hashTypedData('Inner', m), message).replace(/^throws.*/, 'throws')).toBe(
        expected,
      )
    }
  })
})

function replacer(_: string, value: unknown) {
  return typeof value === 'bigint' ? `${value}n` : value
}
