import type { IntentRecord } from '../intents/intentStore'
import type { IntentStatus } from '../intents/lifecycle'
import type { SignedIntent } from '../intents/types'
import { intentFees } from './intentFees'
import type { ExplorerIntent, ExplorerTimelineStep } from './schemas'
import { summarizeIntent } from './summarizeIntent'

/** Looks up the gas a mined transaction used (a receipt), or null when the chain has none. */
export type GasUsedOf = (chainId: number, hash: `0x${string}`) => Promise<string | null>

const step = (
  fields: Pick<ExplorerTimelineStep, 'step' | 'status'> & Partial<ExplorerTimelineStep>,
): ExplorerTimelineStep => ({
  at: null,
  chainId: null,
  transactionHash: null,
  gasUsed: null,
  reason: null,
  ...fields,
})

/** When the intent entered `status` (its history), or null. */
const enteredAt = (record: IntentRecord<SignedIntent>, status: IntentStatus) =>
  record.history.findLast((h) => h.status === status)?.at ?? null

/**
 * An intent with its timeline: quoted (blanc), submitted, the fill, each claim and the final
 * status, each with its devnet-clock time, transaction hash, the gas its receipt says it used,
 * and the reason of a failed step.
 *
 * @example
 * const intent = await describeIntent(record, gasUsedOf)
 * intent.timeline.map((s) => s.step) // ['quoted', 'submitted', 'fill', 'claim', 'completed']
 */
export async function describeIntent(
  record: IntentRecord<SignedIntent>,
  gasUsedOf: GasUsedOf,
): Promise<ExplorerIntent> {
  const { failure } = record
  const gas = (chainId: number, hash: `0x${string}` | null, mined: boolean) =>
    hash && mined ? gasUsedOf(chainId, hash) : Promise.resolve(null)
  const fillMined = record.fill.timestamp !== null
  const [fillGas, ...claimGas] = await Promise.all([
    gas(record.destinationChainId, record.fill.txHash, fillMined),
    ...record.claims.map((c) => gas(c.chainId, c.txHash, c.timestamp !== null)),
  ])
  const timeline: ExplorerTimelineStep[] = []
  if (record.quotedAt !== undefined)
    timeline.push(step({ step: 'quoted', status: 'QUOTED', at: record.quotedAt }))
  timeline.push(step({ step: 'submitted', status: 'PENDING', at: record.createdAt }))
  const fillStatus = fillMined
    ? 'COMPLETED'
    : record.fill.txHash
      ? record.status === 'FAILED'
        ? 'FAILED'
        : 'PRECONFIRMED'
      : record.status === 'FAILED' || record.status === 'EXPIRED'
        ? record.status
        : 'PENDING'
  timeline.push(
    step({
      step: 'fill',
      status: fillStatus,
      at: record.fill.timestamp,
      chainId: record.destinationChainId,
      transactionHash: record.fill.txHash,
      gasUsed: fillGas ?? null,
      reason: failure?.step === 'fill' ? failure.reason : null,
    }),
  )
  record.claims.forEach((claim, index) => {
    timeline.push(
      step({
        step: 'claim',
        status: claim.status,
        at: claim.timestamp,
        chainId: claim.chainId,
        transactionHash: claim.txHash,
        gasUsed: claimGas[index] ?? null,
        reason: failure?.step === 'claim' && claim.status === 'FAILED' ? failure.reason : null,
      }),
    )
  })
  if (record.status === 'COMPLETED')
    timeline.push(step({ step: 'completed', status: 'COMPLETED', at: enteredAt(record, 'COMPLETED') }))
  if (record.status === 'FAILED')
    timeline.push(
      step({
        step: 'failed',
        status: 'FAILED',
        at: enteredAt(record, 'FAILED'),
        reason: failure ? `${failure.step}: ${failure.reason}` : null,
      }),
    )
  if (record.status === 'EXPIRED')
    timeline.push(step({ step: 'expired', status: 'EXPIRED', at: enteredAt(record, 'EXPIRED') }))
  const { payload } = record
  return {
    ...summarizeIntent(record),
    fillDeadline: record.fillDeadline,
    nonce: payload.intentOp.nonce,
    signatures: { origin: payload.originSignatures, destination: payload.destinationSignature },
    fees: intentFees(payload.intentOp),
    timeline,
  }
}
