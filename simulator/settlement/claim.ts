import type { Hex } from 'viem'
import { describeRevert } from './describeRevert'
import { SettlementStepError } from './errors'
import { findMined } from './findMined'
import { getAuthorizations } from './getAuthorizations'
import { getIntentRecord } from './getIntentRecord'
import { getSender } from './getSender'
import { prepareClaim } from './prepareClaim'
import { retryTransient } from './retryTransient'
import { sendSetupCalls } from './sendSetupCalls'
import type { SettlementContext } from './types'

/** Parameters of {@link claim}. */
export type ClaimParameters = {
  id: string
  /** The element whose origin chain is claimed on. */
  index: number
  fillId: Hex
}

/**
 * Claims element `index` of a FILLED intent on its origin chain, paying the relayer, and records
 * the claim mined; a claim already mined (before a restart) is recorded, not sent again.
 *
 * @example
 * await claim(context, { id: record.id, index: 0, fillId })
 */
export async function claim(
  context: SettlementContext,
  { id, index, fillId }: ClaimParameters,
): Promise<void> {
  const { devnet, store } = context
  const record = getIntentRecord(context, id)
  const signed = record.payload
  const chainId = Number(signed.intentOp.elements[index]!.chainId)
  const state = record.claims.find((c) => c.chainId === chainId)
  if (!state || state.status === 'COMPLETED') return
  const mined = await findMined(context, {
    chainId,
    event: 'Claimed',
    fillId,
    txHash: state.txHash ?? undefined,
  })
  if (mined) {
    await store.apply(id, { type: 'claimMined', chainId, txHash: mined.txHash, timestamp: mined.timestamp })
    return
  }
  await sendSetupCalls(context, signed, chainId)
  const call = await prepareClaim(context, signed, index)
  const authorizationList = await getAuthorizations(devnet, signed, chainId)
  if (!authorizationList)
    await retryTransient(context, { what: 'simulate claim' }, call.simulate).catch((error) => {
      throw new SettlementStepError(`claim on chain ${chainId}: ${describeRevert(error)}`, { cause: error })
    })
  const sender = getSender(context, chainId)
  const hash = await retryTransient(context, { what: 'send claim' }, () =>
    sender.send({ to: call.to, data: call.data, authorizationList }),
  )
  await store.apply(id, { type: 'claimSent', chainId, txHash: hash })
  const receipt = await sender.waitForReceipt(hash)
  if (receipt.status !== 'success')
    throw new SettlementStepError(`claim on chain ${chainId}: the transaction ${hash} reverted.`)
  const block = await devnet.chain(chainId).publicClient.getBlock({ blockNumber: receipt.blockNumber })
  await store.apply(id, { type: 'claimMined', chainId, txHash: hash, timestamp: Number(block.timestamp) })
}
