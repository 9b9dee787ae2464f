import type { SignedIntent } from '../intents/types'
import { SettlementStepError } from './errors'
import { getSetupCalls } from './getSetupCalls'
import { sendAndWait } from './sendAndWait'
import type { SettlementContext } from './types'

/** Deploys the account on a chain from its setup calls, one mined transaction each, if it has no code there. */
export async function sendSetupCalls(
  context: Pick<SettlementContext, 'devnet' | 'senders' | 'log'>,
  signed: SignedIntent,
  chainId: number,
): Promise<void> {
  for (const tx of await getSetupCalls(context.devnet, signed, chainId)) {
    const { hash, receipt } = await sendAndWait(context, chainId, tx)
    if (receipt.status !== 'success')
      throw new SettlementStepError(`The account's setup call ${hash} reverted on chain ${chainId}.`)
  }
}
