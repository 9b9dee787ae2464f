import type { Portfolio, PortfolioToken } from '../../spec'
import type { ChainHoldings, PortfolioFilter } from './types'

/**
 * An account's portfolio from the quoting service's balance reads (`readBalances`): per token
 * symbol, `locked` = the Compact lock of the allocator's tag, `unlocked` = the wallet balance,
 * per chain and summed. Tokens held nowhere, and those `filter` leaves out, are left out. Raw
 * units, decimal strings.
 *
 * @example
 * const body = toPortfolio(await readBalances(balances.chains, address))
 */
export function toPortfolio(holdings: readonly ChainHoldings[], filter: PortfolioFilter = {}): Portfolio {
  const bySymbol = new Map<string, PortfolioToken>()
  const wanted = (chainId: number, symbol: string, address: string) =>
    (!filter.chainIds || filter.chainIds.includes(chainId)) &&
    (!filter.tokens ||
      filter.tokens.some(
        (t) =>
          t.chainId === chainId &&
          (t.token.toUpperCase() === symbol.toUpperCase() || t.token.toLowerCase() === address.toLowerCase()),
      ))
  for (const chain of holdings)
    for (const { token, wallet, locked } of chain.tokens) {
      if (wallet === 0n && locked === 0n) continue
      if (!wanted(chain.chainId, token.symbol, token.address)) continue
      let entry = bySymbol.get(token.symbol)
      if (!entry) {
        entry = {
          tokenName: token.symbol,
          tokenDecimals: token.decimals,
          balance: { locked: '0', unlocked: '0' },
          tokenChainBalance: [],
        }
        bySymbol.set(token.symbol, entry)
      }
      entry.balance = {
        locked: String(BigInt(entry.balance.locked) + locked),
        unlocked: String(BigInt(entry.balance.unlocked) + wallet),
      }
      entry.tokenChainBalance.push({
        chainId: chain.chainId,
        tokenAddress: token.address,
        balance: { locked: String(locked), unlocked: String(wallet) },
      })
    }
  return { portfolio: [...bySymbol.values()] }
}
