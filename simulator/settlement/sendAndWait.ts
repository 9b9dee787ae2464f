import type { Hash, TransactionReceipt } from 'viem'
import type { RelayerTransaction } from '../devnet/chainSender'
import { getSender } from './getSender'
import { retryTransient } from './retryTransient'
import type { SettlementContext } from './types'

/** What {@link sendAndWait} resolves with: the hash and the receipt of the mined transaction. */
export type SendAndWaitReturnType = { hash: Hash; receipt: TransactionReceipt }

/** Sends one transaction as the relayer (transient failures retried) and waits until it is mined. */
export async function sendAndWait(
  context: Pick<SettlementContext, 'senders' | 'log'>,
  chainId: number,
  tx: RelayerTransaction,
): Promise<SendAndWaitReturnType> {
  const sender = getSender(context, chainId)
  const hash = await retryTransient(context, { what: `send on ${chainId}` }, () => sender.send(tx))
  return { hash, receipt: await sender.waitForReceipt(hash) }
}
