import { randomBytes } from 'node:crypto'
import {
  bytesToHex,
  getAddress,
  getTypesForEIP712Domain,
  hashStruct as viemHashStruct,
  hashTypedData as viemHashTypedData,
} from 'viem'
import { describe, expect, it } from 'vitest'
import { type AnyTypedDataDefinition, hashStruct, hashTypedData } from './hashTypedData'

const address = () => getAddress(bytesToHex(randomBytes(20)))
const word = () => bytesToHex(randomBytes(32))
const uint = () => BigInt(bytesToHex(randomBytes(1 + (randomBytes(1)[0]! % 32))))

/** A Compact-like shape: nested structs, arrays of structs and of words, every atomic kind. */
const TYPES = {
  Batch: [
    { name: 'sponsor', type: 'address' },
    { name: 'nonce', type: 'uint256' },
    { name: 'expires', type: 'uint256' },
    { name: 'elements', type: 'Element[]' },
    { name: 'note', type: 'string' },
    { name: 'data', type: 'bytes' },
  ],
  Element: [
    { name: 'arbiter', type: 'address' },
    { name: 'chainId', type: 'uint256' },
    { name: 'commitments', type: 'Lock[]' },
    { name: 'mandate', type: 'Mandate' },
  ],
  Lock: [
    { name: 'lockTag', type: 'bytes12' },
    { name: 'token', type: 'address' },
    { name: 'amount', type: 'uint256' },
  ],
  Mandate: [
    { name: 'target', type: 'Target' },
    { name: 'qualifier', type: 'bytes32' },
    { name: 'ok', type: 'bool' },
    { name: 'delta', type: 'int128' },
    { name: 'hashes', type: 'bytes32[2]' },
  ],
  Target: [
    { name: 'recipient', type: 'address' },
    { name: 'tokenOut', type: 'uint256[2][]' },
  ],
} as const

const element = () => ({
  arbiter: address(),
  chainId: uint(),
  commitments: Array.from({ length: randomBytes(1)[0]! % 3 }, () => ({
    lockTag: bytesToHex(randomBytes(12)),
    token: address(),
    amount: uint(),
  })),
  mandate: {
    target: { recipient: address(), tokenOut: [[uint(), uint()]] },
    qualifier: word(),
    ok: randomBytes(1)[0]! % 2 === 0,
    delta: -uint() % 2n ** 120n,
    hashes: [word(), word()],
  },
})

const batch = (): AnyTypedDataDefinition => ({
  domain: { name: 'The Compact', version: '1', chainId: 8453, verifyingContract: address() },
  types: TYPES,
  primaryType: 'Batch',
  message: {
    sponsor: address(),
    nonce: uint(),
    expires: uint(),
    elements: Array.from({ length: 1 + (randomBytes(1)[0]! % 3) }, element),
    note: `ünïcode ${randomBytes(4).toString('hex')} 🚀`,
    data: bytesToHex(randomBytes(randomBytes(1)[0]! % 70)),
  },
})

/** Our digest or error message beside viem's. */
const both = (definition: AnyTypedDataDefinition) => {
  const outcome = (hash: () => string) => {
    try {
      return hash()
    } catch (error) {
      return `throws ${(error as Error).message}`
    }
  }
  return [outcome(() => hashTypedData(definition)), outcome(() => viemHashTypedData(definition))]
}

describe('hashTypedData', () => {
  it("hashes to viem's digest, for many messages of a nested shape and several domains", () => {
    for (let i = 0; i < 60; i++) {
      const definition = batch()
      if (i % 3 === 1) definition.domain = { name: 'Permit2', chainId: 10n, verifyingContract: address() }
      if (i % 3 === 2) definition.domain = { salt: word(), version: '2' }
      // As wallets take it: the domain's type among the types.
      if (i % 2 === 0)
        definition.types = { EIP712Domain: getTypesForEIP712Domain({ domain: definition.domain! }), ...TYPES }
      const [ours, viems] = both(definition)
      expect(ours).toMatch(/^0x[0-9a-f]{64}$/)
      expect(ours).toBe(viems)
    }
  })

  it("gives viem's digest or viem's own error for the odd shapes and values viem takes", () => {
    const base = batch()
    const message = base.message as Record<string, unknown>
    const cases: AnyTypedDataDefinition[] = [
      // The domain's type among the types: other than its fields make it, or as a field's type;
      // or the domain hashed as the primary type.
      { ...base, types: { ...TYPES, EIP712Domain: [{ name: 'name', type: 'string' }] } },
      {
        ...base,
        types: { ...TYPES, EIP712Domain: getTypesForEIP712Domain({ domain: base.domain! }).reverse() },
      },
      {
        ...base,
        types: {
          ...TYPES,
          EIP712Domain: getTypesForEIP712Domain({ domain: base.domain! }),
          Batch: [{ name: 'd', type: 'EIP712Domain' }],
        },
        message: { d: base.domain },
      },
      { ...base, primaryType: 'EIP712Domain', message: {} },
      // Odd-length and non-hex bytes, bytes as a Uint8Array, a string that is not one.
      { ...base, message: { ...message, data: '0xabc' } },
      { ...base, message: { ...message, data: '0xzz' } },
      { ...base, message: { ...message, data: randomBytes(5) } },
      { ...base, message: { ...message, note: 42 } },
      { ...base, message: { ...message, note: [1, 2, 300] } },
      // Missing and wrong values: a field, a struct, an array, an address, an integer out of range, a bytesN size.
      { ...base, message: { ...message, sponsor: undefined } },
      { ...base, message: { ...message, elements: 'x' } },
      { ...base, message: { ...message, elements: [null] } },
      { ...base, message: { ...message, sponsor: '0x1234' } },
      { ...base, message: { ...message, nonce: -1n } },
      { ...base, message: { ...message, nonce: 2n ** 256n } },
      { ...base, message: { ...message, elements: [{ ...element(), commitments: [{ lockTag: '0x12' }] }] } },
      // Types viem reads by their leading word, unknown types, an unknown primary type.
      { ...base, types: { ...TYPES, Batch: [{ name: 'x', type: 'Lock.x' }] }, message: { x: 1 } },
      { ...base, types: { ...TYPES, Batch: [{ name: 'x', type: 'Nope' }] }, message: { x: 1 } },
      { ...base, primaryType: 'Missing' },
      // Extra fields are ignored by both.
      { ...base, message: { ...message, extra: 'ignored' } },
    ]
    for (const definition of cases) {
      const [ours, viems] = both(definition)
      expect(ours, JSON.stringify(definition.types).slice(0, 80)).toBe(viems)
    }
  })

  it('hashes a second message of a shape with the hasher made for the first, and new shapes anew', () => {
    const first = batch()
    const second = { ...batch(), domain: first.domain }
    expect(both(first)[0]).toBe(both(first)[1])
    expect(both(second)[0]).toBe(both(second)[1])
    expect(hashTypedData(first)).not.toBe(hashTypedData(second))
    for (let i = 0; i < 300; i++) {
      const definition = { ...batch(), domain: { name: `domain ${i}` } }
      expect(hashTypedData(definition)).toBe(viemHashTypedData(definition))
    }
  })

  it("hashes structs to viem's hashStruct, or throws viem's error", () => {
    for (let i = 0; i < 30; i++) {
      const { message } = batch()
      const data = message as Record<string, unknown>
      for (const [primaryType, value] of [
        ['Batch', data],
        ['Element', (data.elements as Record<string, unknown>[])[0]!],
        ['Lock', { lockTag: '0x12', token: address(), amount: 1n }],
        ['Missing', data],
      ] as const) {
        const parameters = { types: TYPES, primaryType, data: value }
        const outcome = (hash: () => string) => {
          try {
            return hash()
          } catch (error) {
            return `throws ${(error as Error).message}`
          }
        }
        expect(outcome(() => hashStruct(parameters))).toBe(
          outcome(() => viemHashStruct(parameters as Parameters<typeof viemHashStruct>[0])),
        )
      }
    }
  })

  it('hashes every kind of atomic value as viem encodes it: strings, numbers, bounds, hex case, refusals', () => {
    const types = {
      Atoms: [
        { name: 'a', type: 'address' },
        { name: 'u', type: 'uint256' },
        { name: 's', type: 'uint8' },
        { name: 'n', type: 'uint96' },
        { name: 'w', type: 'bytes32' },
        { name: 't', type: 'bytes12' },
        { name: 'b', type: 'bool' },
        { name: 'list', type: 'uint64[]' },
      ],
    } as const
    const good = {
      a: address(),
      u: uint(),
      s: 255,
      n: 2n ** 96n - 1n,
      w: word(),
      t: bytesToHex(randomBytes(12)),
      b: true,
      list: [1n, '2', 3],
    }
    const variants: Record<string, unknown>[] = [
      good,
      { ...good, a: good.a.toLowerCase(), u: String(uint()), b: false },
      { ...good, w: good.w.toUpperCase().replace('0X', '0x'), t: good.t.toUpperCase().replace('0X', '0x') },
      { ...good, u: 0, s: 0n, n: '0', list: [] },
      { ...good, u: ` ${uint()}` },
      { ...good, u: '0x1f' },
      { ...good, u: 1.5 },
      { ...good, u: 2 ** 60 },
      { ...good, s: 256 },
      { ...good, n: 2n ** 96n },
      { ...good, a: good.a.toUpperCase().replace('0X', '0x') },
      { ...good, a: `0x${good.a.slice(2, 41)}` },
      { ...good, w: good.w.slice(0, 64) },
      { ...good, t: `${good.t}00` },
      { ...good, t: '0xabc' },
      { ...good, b: 1 },
      { ...good, list: [-1n] },
      { ...good, list: [2n ** 64n] },
    ]
    const outcome = (hash: () => string) => {
      try {
        return hash()
      } catch (error) {
        return `throws ${(error as Error).message}`
      }
    }
    for (const data of variants) {
      const parameters = { types, primaryType: 'Atoms', data }
      expect(
        outcome(() => hashStruct(parameters)),
        JSON.stringify(data, (_, v) => (typeof v === 'bigint' ? `${v}n` : v)),
      ).toBe(outcome(() => viemHashStruct(parameters as Parameters<typeof viemHashStruct>[0])))
    }
  })
})
