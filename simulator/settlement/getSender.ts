import type { ChainSender } from '../devnet/chainSender'
import { SettlementStepError } from './errors'
import type { SettlementContext } from './types'

/** The relayer's sender (its one nonce queue) on a chain; throws when the chain has none. */
export function getSender(context: Pick<SettlementContext, 'senders'>, chainId: number): ChainSender {
  const sender = context.senders.get(chainId)
  if (!sender) throw new SettlementStepError(`No relayer sender for chain ${chainId}.`)
  return sender
}
