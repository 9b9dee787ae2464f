import type { Hex } from 'viem'
import { addresses } from '../../contracts/addresses'
import { TheCompact } from '../../contracts/generated/artifacts'
import type { SettlementContext } from './types'

/** The Compact's EIP-712 domain separator on a chain, read once per chain (a failed read is tried again next time). */
export function getCompactDomainSeparator(
  context: Pick<SettlementContext, 'devnet' | 'domainSeparators'>,
  chainId: number,
): Promise<Hex> {
  const { domainSeparators } = context
  let separator = domainSeparators.get(chainId)
  if (!separator) {
    separator = context.devnet.chain(chainId).publicClient.readContract({
      address: addresses.compact,
      abi: TheCompact.abi,
      functionName: 'DOMAIN_SEPARATOR',
    })
    domainSeparators.set(chainId, separator)
    separator.catch(() => domainSeparators.delete(chainId))
  }
  return separator
}
