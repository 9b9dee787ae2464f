import type { Hex } from 'viem'
import { describeRevert, revertErrorName } from './describeRevert'
import { SettlementStepError } from './errors'
import { findMined } from './findMined'
import { getAuthorizations } from './getAuthorizations'
import { getIntentRecord } from './getIntentRecord'
import { getSender } from './getSender'
import { minedAt } from './minedAt'
import { prepareFill } from './prepareFill'
import { hasChainSetup, startEarly, unwrap } from './readsAhead'
import { retryTransient } from './retryTransient'
import { sendSetupCalls } from './sendSetupCalls'
import type { SettlementContext } from './types'

/** Parameters of {@link fill}. */
export type FillParameters = {
  id: string
  /** The intent's fill id (getFillId), read once by the caller, which claims with it too. */
  fillId: Hex
}

/** The fill, mined: its transaction and block time (not yet recorded as `fillMined`). */
export type FillReturnType = { txHash: `0x${string}`; timestamp: number } | undefined

/**
 * Fills a PENDING or PRECONFIRMED intent on its destination and returns the mined fill, which
 * the caller records (`fillMined`, see settleIntent: the claims go out first, so FILLED is never
 * shown without its claims): a fill already mined (before a restart) is found, not sent again; a
 * fill past its deadline makes the intent EXPIRED (undefined is returned); a fill that would
 * revert throws with the decoded reason.
 *
 * @example
 * const mined = await fill(context, { id: record.id, fillId })
 */
export async function fill(
  context: SettlementContext,
  { id, fillId }: FillParameters,
): Promise<FillReturnType> {
  const { devnet, store } = context
  const record = getIntentRecord(context, id)
  const signed = record.payload
  const destination = record.destinationChainId

  // Nothing to set up first: the simulation goes side by side with the search (readsAhead.ts).
  let prepared: ReturnType<typeof prepareFill> | undefined
  const prepare = () => (prepared ??= prepareFill(devnet, signed))
  const simulateFill = async () => retryTransient(context, { what: 'simulate fill' }, prepare().simulate)
  const early = hasChainSetup(signed, destination) ? undefined : startEarly(simulateFill)
  // Sent before a restart: the receipt (or the chain's record of the fill) says what happened.
  const mined = await findMined(context, {
    chainId: destination,
    event: 'Filled',
    fillId,
    txHash: record.status === 'PRECONFIRMED' ? (record.fill.txHash ?? undefined) : undefined,
  })
  if (mined) return mined

  if (getIntentRecord(context, id).status === 'PENDING' && devnet.now() > record.fillDeadline) {
    await store.apply(id, { type: 'expired' })
    return
  }
  await sendSetupCalls(context, signed, destination)
  const call = prepare()
  const authorizationList = await getAuthorizations(devnet, signed, destination)
  // Before its EIP-7702 authorization applies the account has no code, so an eth_call would
  // revert; the sender's gas estimate (which carries the authorization) checks it instead.
  if (!authorizationList) {
    try {
      unwrap(await (early ?? startEarly(simulateFill)))
    } catch (error) {
      if (revertErrorName(error) === 'FillExpired' && getIntentRecord(context, id).status === 'PENDING') {
        await store.apply(id, { type: 'expired' })
        return
      }
      throw new SettlementStepError(describeRevert(error), { cause: error })
    }
  }
  // The expiry check must not expire an intent whose fill is on its way: decide, then commit.
  const latest = getIntentRecord(context, id)
  if (latest.status !== 'PENDING' && latest.status !== 'PRECONFIRMED') return
  context.fillCommitted.add(id)
  const sender = getSender(context, destination)
  const hash = await retryTransient(context, { what: 'send fill' }, () =>
    sender.send({ to: call.to, data: call.data, value: call.value, authorizationList }),
  )
  if (getIntentRecord(context, id).status === 'PENDING')
    await store.apply(id, { type: 'fillSent', txHash: hash })
  const receipt = await sender.waitForReceipt(hash)
  if (receipt.status !== 'success') throw new SettlementStepError(`The fill transaction ${hash} reverted.`)
  return { txHash: hash, timestamp: await minedAt(devnet.chain(destination).publicClient, receipt) }
}
