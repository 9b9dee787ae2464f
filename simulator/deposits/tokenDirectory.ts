import { zeroAddress } from 'viem'
import type { TokenInfo } from '../../contracts/addresses'

/** Native ether as the processor names it: the zero address, symbol ETH, 18 decimals. */
export const NATIVE_TOKEN: TokenInfo = { symbol: 'ETH', name: 'Ether', address: zeroAddress, decimals: 18 }

/** The token lists of the chains the processor watches. */
export type TokenDirectory = {
  chainIds(): number[]
  /** The token at `address` on `chainId` (the zero address is native ether), or undefined. */
  token(chainId: number, address: string): TokenInfo | undefined
  /** The token of `symbol` on `chainId` ('ETH' is native ether), or undefined. */
  bySymbol(chainId: number, symbol: string): TokenInfo | undefined
}

/** Builds a {@link TokenDirectory} from per-chain token lists. */
export function createTokenDirectory(tokens: Record<number, readonly TokenInfo[]>): TokenDirectory {
  const byChain = new Map<number, TokenInfo[]>(
    Object.entries(tokens).map(([chainId, list]) => [Number(chainId), [NATIVE_TOKEN, ...list]]),
  )
  return {
    chainIds: () => [...byChain.keys()],
    token: (chainId, address) =>
      byChain.get(chainId)?.find((token) => token.address.toLowerCase() === address.toLowerCase()),
    bySymbol: (chainId, symbol) =>
      byChain.get(chainId)?.find((token) => token.symbol.toUpperCase() === symbol.toUpperCase()),
  }
}
