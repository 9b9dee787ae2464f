import { getAddress } from 'viem'
import type { RelayerTransaction } from '../devnet/chainSender'
import type { SignedIntent } from '../intents/types'
import type { SettlementDevnet } from './types'

/** The account's setup calls (its deployment) when it has no code on the chain yet; else none. */
export async function getSetupCalls(
  devnet: Pick<SettlementDevnet, 'chain'>,
  signed: SignedIntent,
  chainId: number,
): Promise<RelayerTransaction[]> {
  if (signed.setupOps.length === 0) return []
  const code = await devnet
    .chain(chainId)
    .publicClient.getCode({ address: getAddress(signed.intentOp.sponsor) })
  if (code && code !== '0x') return []
  return signed.setupOps.map((op) => ({ to: getAddress(op.to), data: op.data }))
}
