import { getAddress } from 'viem'
import type { RelayerTransaction } from '../devnet/chainSender'
import type { SignedIntent } from '../intents/types'
import { getAuthorizations } from './getAuthorizations'
import type { SettlementDevnet } from './types'

/**
 * The account's setup calls (its deployment) when it has no code on the chain yet; else none.
 * An EIP-7702 account whose delegation is not applied there yet gets them too, the first one
 * carrying its authorization (so the SDK's `initializeAccount` runs on the delegated code).
 */
export async function getSetupCalls(
  devnet: Pick<SettlementDevnet, 'chain'>,
  signed: SignedIntent,
  chainId: number,
): Promise<RelayerTransaction[]> {
  if (signed.setupOps.length === 0) return []
  const calls = signed.setupOps.map((op): RelayerTransaction => ({ to: getAddress(op.to), data: op.data }))
  const authorizationList = await getAuthorizations(devnet, signed, chainId)
  if (authorizationList) return calls.map((call, i) => (i === 0 ? { ...call, authorizationList } : call))
  const code = await devnet
    .chain(chainId)
    .publicClient.getCode({ address: getAddress(signed.intentOp.sponsor) })
  if (code && code !== '0x') return []
  return calls
}
