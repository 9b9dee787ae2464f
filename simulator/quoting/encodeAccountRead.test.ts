import { type Address, getAddress, keccak256, toHex } from 'viem'
import { describe, expect, it } from 'vitest'
import { tokensByChain } from '../../contracts/addresses'
import type { BalanceChain } from './createBalanceReader'
import { encodeAccountRead, viemEncode } from './encodeAccountRead'
import { withNative } from './swaps'

const chainOf = (chainId: number): BalanceChain => ({
  chainId,
  tokens: withNative(tokensByChain)[chainId]!,
  client: undefined as never,
  calldata: new Map(),
  decoded: new Map(),
})

/** An account from a seed: 20 bytes of a hash. */
const accountOf = (seed: number): Address => `0x${keccak256(toHex(seed)).slice(26)}`

describe('encodeAccountRead', () => {
  it("encodes every chain's read as viem does, for lower-case and checksummed accounts", () => {
    for (const chainId of Object.keys(tokensByChain).map(Number)) {
      const chain = chainOf(chainId)
      for (let seed = 0; seed < 50; seed++) {
        const account = seed % 2 ? accountOf(seed) : getAddress(accountOf(seed))
        expect(encodeAccountRead(chain, account)).toBe(viemEncode(chain, account))
      }
      for (const account of [
        '0x0000000000000000000000000000000000000000',
        '0xffffffffffffffffffffffffffffffffffffffff',
        `0x${'5e'.repeat(20)}`,
        `0x${'a7'.repeat(20)}`,
      ] as Address[])
        expect(encodeAccountRead(chain, account)).toBe(viemEncode(chain, account))
    }
  })

  it('refuses what viem refuses, with its error: a wrong checksum, not an address', () => {
    const chain = chainOf(Number(Object.keys(tokensByChain)[0]))
    const checksummed = getAddress(accountOf(3))
    const flipped = (checksummed.slice(0, 2) +
      [...checksummed.slice(2)]
        .map((c) => (c === c.toLowerCase() ? c.toUpperCase() : c.toLowerCase()))
        .join('')) as Address
    for (const bad of [flipped, `0x${'F'.repeat(40)}`, '0x1234', 'not an address'] as Address[]) {
      const viem = (() => {
        try {
          return viemEncode(chain, bad)
        } catch (error) {
          return (error as Error).message
        }
      })()
      expect(() => encodeAccountRead(chain, bad)).toThrow(viem)
    }
  })

  it('keeps what it encoded, per account', () => {
    const chain = chainOf(Number(Object.keys(tokensByChain)[0]))
    const account = accountOf(1)
    expect(encodeAccountRead(chain, account)).toBe(encodeAccountRead(chain, account))
    expect(chain.calldata.get(account)).toBe(viemEncode(chain, account))
  })
})
