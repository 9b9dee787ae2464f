import type { TokenInfo } from '../../contracts/addresses'
import type { Registration } from './configStore'
import type { TokenDirectory } from './tokenDirectory'

/**
 * The token a deposit is bridged into: the registration's `targetToken`, or else the token of the
 * deposited token's symbol on the target chain; undefined when there is none.
 */
export function resolveTargetToken(
  tokens: TokenDirectory,
  registration: Registration,
  token: TokenInfo | undefined,
): TokenInfo | undefined {
  if (registration.targetToken) return tokens.token(registration.targetChainId, registration.targetToken)
  return token ? tokens.bySymbol(registration.targetChainId, token.symbol) : undefined
}
