import { decodeAbiParameters, type Hex } from 'viem'
import type { BalanceChain } from './createBalanceReader'
import { decodeAggregate3 } from './decodeAggregate3'
import { lockIdOf, remember } from './encodeAccountRead'
import { isNative } from './swaps'
import type { ChainHoldings } from './types'

const UINT256 = [{ type: 'uint256' }] as const
/** `0x` and 32 bytes in hex: one ABI word. */
const WORD_HEX = 66

/**
 * The holdings an `aggregate3` answer says (base fee, then three reads per token; a failed or
 * empty read is 0). The same bytes always mean the same holdings (they name no account), so an
 * answer seen before is not decoded again: its frozen holdings are shared.
 */
export function decodeHoldings(chain: BalanceChain, answer: Hex): ChainHoldings {
  const known = chain.decoded.get(answer)
  if (known) return known
  return remember(chain.decoded, answer, holdingsOf(chain, decodeAggregate3(answer)))
}

/** Holdings from an account's `aggregate3` results (base fee, then three reads per token), frozen. */
function holdingsOf(
  chain: BalanceChain,
  results: readonly { success: boolean; returnData: Hex }[],
): ChainHoldings {
  const value = (i: number): bigint => {
    const r = results[i]
    if (!r?.success || r.returnData === '0x') return 0n
    try {
      // Exactly one word (every read here answers one): its value, as viem's decoder reads it
      // (invalid hex throws there too), without building a cursor. Anything else: viem decodes.
      if (r.returnData.length === WORD_HEX) return BigInt(r.returnData)
      return decodeAbiParameters(UINT256, r.returnData)[0]
    } catch {
      return 0n
    }
  }
  return Object.freeze({
    chainId: chain.chainId,
    baseFee: value(0),
    tokens: Object.freeze(
      chain.tokens.map((token, i) =>
        Object.freeze({
          token,
          wallet: value(1 + 3 * i),
          permit2Allowance: isNative(token.address) ? 0n : value(2 + 3 * i),
          lockId: lockIdOf(token.address),
          locked: value(3 + 3 * i),
        }),
      ),
    ),
  })
}
