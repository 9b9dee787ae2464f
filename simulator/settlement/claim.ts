import type { Hex } from 'viem'
import { describeRevert } from './describeRevert'
import { SettlementStepError } from './errors'
import { findMined } from './findMined'
import { getAuthorizations } from './getAuthorizations'
import { getIntentRecord } from './getIntentRecord'
import { getSender } from './getSender'
import { minedAt } from './minedAt'
import { prepareClaim } from './prepareClaim'
import { hasChainSetup, startEarly } from './readsAhead'
import { retryTransient } from './retryTransient'
import { sendSetupCalls } from './sendSetupCalls'
import type { SettlementContext } from './types'

/** Parameters of {@link startClaim}. */
export type ClaimParameters = {
  id: string
  /** The element whose origin chain is claimed on. */
  index: number
  fillId: Hex
}

/** A claim under way: found mined (before a restart), or handed to the sender; undefined when already COMPLETED. */
export type StartedClaim =
  | { chainId: number; mined: { txHash: Hex; timestamp: number } }
  | { chainId: number; hash: Hex }
  | undefined

/**
 * Starts the claim of element `index` on its origin chain, without recording anything: finds it
 * mined (before a restart), or runs its setup calls, simulates it and hands it to the sender.
 * The caller records what it returns (`claimMined` or `claimSent`), then calls {@link finishClaim}.
 *
 * @example
 * const started = await startClaim(context, { id: record.id, index: 0, fillId })
 */
export async function startClaim(
  context: SettlementContext,
  { id, index, fillId }: ClaimParameters,
): Promise<StartedClaim> {
  const { devnet } = context
  const record = getIntentRecord(context, id)
  const signed = record.payload
  const chainId = Number(signed.intentOp.elements[index]!.chainId)
  const state = record.claims.find((c) => c.chainId === chainId)
  if (!state || state.status === 'COMPLETED') return undefined
  // Nothing to set up first: the claim is prepared and simulated side by side with the search
  // (readsAhead.ts); a claim found mined leaves both unused.
  let prepared: ReturnType<typeof prepareClaim> | undefined
  const prepare = () => (prepared ??= prepareClaim(context, signed, index))
  const simulateClaim = async () =>
    retryTransient(context, { what: 'simulate claim' }, (await prepare()).simulate)
  const early = hasChainSetup(signed, chainId) ? undefined : startEarly(simulateClaim)
  const mined = await findMined(context, {
    chainId,
    event: 'Claimed',
    fillId,
    txHash: state.txHash ?? undefined,
  })
  if (mined) return { chainId, mined }
  await sendSetupCalls(context, signed, chainId)
  const call = await prepare()
  const authorizationList = await getAuthorizations(devnet, signed, chainId)
  if (!authorizationList) {
    const simulated = await (early ?? startEarly(simulateClaim))
    if (!simulated.ok)
      throw new SettlementStepError(`claim on chain ${chainId}: ${describeRevert(simulated.error)}`, {
        cause: simulated.error,
      })
  }
  const sender = getSender(context, chainId)
  const hash = await retryTransient(context, { what: 'send claim' }, () =>
    sender.send({ to: call.to, data: call.data, authorizationList }),
  )
  return { chainId, hash }
}

/** The event that records a started claim: mined, or sent. */
export function startedClaimEvent(started: NonNullable<StartedClaim>) {
  return 'mined' in started
    ? ({ type: 'claimMined', chainId: started.chainId, ...started.mined } as const)
    : ({ type: 'claimSent', chainId: started.chainId, txHash: started.hash } as const)
}

/**
 * Waits for a sent claim's receipt and records it mined; throws when it reverted.
 *
 * @example
 * await finishClaim(context, { id: record.id, chainId: 10, hash })
 */
export async function finishClaim(
  context: SettlementContext,
  { id, chainId, hash }: { id: string; chainId: number; hash: Hex },
): Promise<void> {
  const receipt = await getSender(context, chainId).waitForReceipt(hash)
  if (receipt.status !== 'success')
    throw new SettlementStepError(`claim on chain ${chainId}: the transaction ${hash} reverted.`)
  await context.store.apply(id, {
    type: 'claimMined',
    chainId,
    txHash: hash,
    timestamp: await minedAt(context.devnet.chain(chainId).publicClient, receipt),
  })
}
