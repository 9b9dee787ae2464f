import { isAllowed } from './isAllowed'
import { isNative } from './swaps'
import type { AccessList, FundingMethod, TokenHolding } from './types'

/**
 * What the account can spend of one holding by `method`: its Compact lock (COMPACT), or what
 * Permit2 may take from the wallet (PERMIT2, never native ETH); 0 where the access list forbids it.
 */
export function spendable(
  chainId: number,
  holding: TokenHolding,
  method: FundingMethod,
  access: AccessList | undefined,
): bigint {
  if (!isAllowed(access, chainId, holding.token)) return 0n
  if (method === 'COMPACT') return holding.locked
  if (isNative(holding.token.address)) return 0n
  if (holding.wallet < holding.permit2Allowance) return holding.wallet
  return holding.permit2Allowance
}
