import { getAddress, type Hex, type SignedAuthorizationList } from 'viem'
import type { SignedIntent } from '../intents/types'
import type { SettlementDevnet } from './types'

/**
 * The intent's EIP-7702 authorizations for one chain (chain id 0 = any chain) that the account
 * has not applied yet; undefined when there are none to carry.
 */
export async function getAuthorizations(
  devnet: Pick<SettlementDevnet, 'chain'>,
  signed: SignedIntent,
  chainId: number,
): Promise<SignedAuthorizationList | undefined> {
  const list = (signed.intentOp.signedAuthorizations ?? []).filter(
    (a) => a.chainId === chainId || a.chainId === 0,
  )
  if (list.length === 0) return undefined
  const code = await devnet
    .chain(chainId)
    .publicClient.getCode({ address: getAddress(signed.intentOp.sponsor) })
  const pending = list.filter((a) => code?.toLowerCase() !== `0xef0100${a.address.slice(2)}`.toLowerCase())
  if (pending.length === 0) return undefined
  return pending.map((a) => ({
    address: getAddress(a.address),
    chainId: a.chainId,
    nonce: Number(a.nonce),
    r: a.r as Hex,
    s: a.s as Hex,
    yParity: a.yParity,
  }))
}
