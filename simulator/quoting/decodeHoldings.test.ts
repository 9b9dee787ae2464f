import { decodeAbiParameters, encodeAbiParameters, encodeFunctionResult, type Hex, maxUint256 } from 'viem'
import { describe, expect, it } from 'vitest'
import { tokensByChain } from '../../contracts/addresses'
import * as artifacts from '../../contracts/generated/artifacts'
import type { BalanceChain } from './createBalanceReader'
import { decodeHoldings } from './decodeHoldings'
import { withNative } from './swaps'

const chainOf = (): BalanceChain => ({
  chainId: 1,
  tokens: withNative(tokensByChain)[1]!,
  client: undefined as never,
  calldata: new Map(),
  decoded: new Map(),
})

const word = (value: bigint): Hex => encodeAbiParameters([{ type: 'uint256' }], [value])

/** What viem's decoder reads from one answer: its first word, or 0 for a failed, empty or short read. */
const viemValue = (r: { success: boolean; returnData: Hex }): bigint => {
  if (!r.success || r.returnData === '0x') return 0n
  try {
    return decodeAbiParameters([{ type: 'uint256' }], r.returnData)[0]
  } catch {
    return 0n
  }
}

describe('decodeHoldings', () => {
  it('reads every value as viem decodes it: one word, a longer answer, a short one, a failed one', () => {
    const chain = chainOf()
    const shapes: { success: boolean; returnData: Hex }[] = [
      { success: true, returnData: word(maxUint256) },
      { success: true, returnData: word(12_345n) },
      { success: true, returnData: `${word(7n)}${word(9n).slice(2)}` },
      { success: true, returnData: '0x1234' },
      { success: false, returnData: word(99n) },
      { success: true, returnData: '0x' },
      { success: true, returnData: word(0n) },
    ]
    const results = Array.from({ length: 1 + 3 * chain.tokens.length }, (_, i) => shapes[i % shapes.length]!)
    const answer = encodeFunctionResult({
      abi: artifacts.Multicall3.abi,
      functionName: 'aggregate3',
      result: results,
    })
    const holdings = decodeHoldings(chain, answer)
    expect(holdings.baseFee).toBe(viemValue(results[0]!))
    holdings.tokens.forEach((token, i) => {
      expect(token.wallet).toBe(viemValue(results[1 + 3 * i]!))
      expect(token.locked).toBe(viemValue(results[3 + 3 * i]!))
      if (token.token.address !== '0x0000000000000000000000000000000000000000')
        expect(token.permit2Allowance).toBe(viemValue(results[2 + 3 * i]!))
    })
    expect(holdings.baseFee).toBe(maxUint256)
    expect(decodeHoldings(chain, answer)).toBe(holdings)
  })
})
