import type { TokenInfo } from '../../contracts/addresses'
import type { AccessList } from './types'

const matches = (token: TokenInfo, names: readonly string[]) =>
  names.some(
    (n) => n.toLowerCase() === token.address.toLowerCase() || n.toUpperCase() === token.symbol.toUpperCase(),
  )

/** Whether accountAccessList lets the account spend `token` on `chainId` (tokens by address or symbol). */
export function isAllowed(access: AccessList | undefined, chainId: number, token: TokenInfo): boolean {
  if (!access) return true
  if (access.chainIds && !access.chainIds.map(Number).includes(chainId)) return false
  if (access.tokens && !matches(token, access.tokens)) return false
  if (access.chainTokens) {
    const names = access.chainTokens[String(chainId)]
    if (!names || !matches(token, names)) return false
  }
  const ex = access.exclude
  if (ex) {
    if (ex.chainIds?.map(Number).includes(chainId)) return false
    if (ex.tokens && matches(token, ex.tokens)) return false
    const names = ex.chainTokens?.[String(chainId)]
    if (names && matches(token, names)) return false
  }
  return true
}
