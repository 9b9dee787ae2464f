import { type Address, getAddress, zeroAddress } from 'viem'
import { tokensByChain } from '../../contracts/addresses'
import type { ExplorerTokenAmount } from './schemas'

const LOW_160_BITS = (1n << 160n) - 1n

/** The token of a Compact lock id (its low 160 bits; the zero address is native ether). */
export function tokenOfLockId(lockId: string | bigint): Address {
  return getAddress(`0x${(BigInt(lockId) & LOW_160_BITS).toString(16).padStart(40, '0')}`)
}

/**
 * A raw amount of a token on a chain, with the devnet's symbol and decimals for it when it
 * knows the token (native ether as ETH).
 *
 * @example
 * tokenAmount(8453, '0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913', 1_000_000n) // { symbol: 'USDC', decimals: 6, … }
 */
export function tokenAmount(chainId: number, token: Address, amount: string | bigint): ExplorerTokenAmount {
  if (token === zeroAddress) return { chainId, token, symbol: 'ETH', decimals: 18, amount: String(amount) }
  const known = (tokensByChain[chainId] ?? []).find((t) => t.address.toLowerCase() === token.toLowerCase())
  return {
    chainId,
    token: getAddress(token),
    symbol: known?.symbol ?? null,
    decimals: known?.decimals ?? null,
    amount: String(amount),
  }
}
