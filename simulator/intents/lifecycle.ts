/**
 * The intent lifecycle: the one state machine of an intent's status, and the only code that
 * changes it. Each state names the events it accepts, so an illegal transition does not
 * type-check where the status is known, and `applyIntentEvent` refuses it at run time for an
 * intent whose status is only known at run time (e.g. loaded from disk).
 *
 *   PENDING ─fillSent→ PRECONFIRMED ─fillMined→ FILLED ─claimMined (all)→ COMPLETED
 *      │                    │                      │
 *      └─expired→ EXPIRED   └────── failed ────────┴─→ FAILED
 */
import { BaseError } from '../../spec/BaseError'

/** Intent statuses (facts §1); CLAIMED is the public service's and is not used by the devnet. */
export type IntentStatus = 'PENDING' | 'PRECONFIRMED' | 'FILLED' | 'COMPLETED' | 'FAILED' | 'EXPIRED'
/** A claim's status on one origin chain (facts §1). */
export type ClaimStatus = 'PENDING' | 'PRECONFIRMED' | 'COMPLETED' | 'FAILED' | 'EXPIRED'

/** An event that moves an intent. */
export type IntentEvent =
  | { type: 'fillSent'; txHash: `0x${string}` }
  | { type: 'fillMined'; txHash: `0x${string}`; timestamp: number }
  | { type: 'claimSent'; chainId: number; txHash: `0x${string}` }
  | { type: 'claimMined'; chainId: number; txHash: `0x${string}`; timestamp: number }
  | { type: 'failed'; reason: string; step: 'fill' | 'claim' | 'submit' | 'resume' }
  | { type: 'expired' }

/** Which events each status accepts: the whole transition table. */
const accepts = {
  PENDING: ['fillSent', 'fillMined', 'failed', 'expired'],
  PRECONFIRMED: ['fillMined', 'failed'],
  FILLED: ['claimSent', 'claimMined', 'failed'],
  COMPLETED: [],
  FAILED: [],
  EXPIRED: [],
} as const satisfies Record<IntentStatus, readonly IntentEvent['type'][]>

/** The events a status accepts, as a type. */
export type AcceptedEvent<S extends IntentStatus> = Extract<
  IntentEvent,
  { type: (typeof accepts)[S][number] }
>

/** The final statuses: nothing moves an intent out of them. */
export const FINAL_STATUSES: readonly IntentStatus[] = ['COMPLETED', 'FAILED', 'EXPIRED']

/** One claim of an intent, on one origin chain. */
export type ClaimState = {
  chainId: number
  status: ClaimStatus
  txHash: `0x${string}` | null
  timestamp: number | null
}

/** The part of an intent the lifecycle owns. */
export type LifecycleState = {
  status: IntentStatus
  fill: { txHash: `0x${string}` | null; timestamp: number | null }
  claims: ClaimState[]
  failure: { reason: string; step: string } | null
  history: { status: IntentStatus; at: number; event: IntentEvent['type'] | 'submitted' | 'rewound' }[]
}

export class IllegalTransitionError extends BaseError {
  override name = 'Intent.IllegalTransitionError'
  constructor(status: IntentStatus, event: IntentEvent['type']) {
    super(`An intent in status ${status} cannot take the event '${event}'.`, {
      metaMessages: [`${status} accepts: ${accepts[status].join(', ') || 'nothing (final)'}`],
    })
  }
}

/** A new intent's lifecycle: PENDING, with one PENDING claim per origin chain. */
export function initialLifecycle(originChainIds: readonly number[], at: number): LifecycleState {
  return {
    status: 'PENDING',
    fill: { txHash: null, timestamp: null },
    claims: originChainIds.map((chainId) => ({ chainId, status: 'PENDING', txHash: null, timestamp: null })),
    failure: null,
    history: [{ status: 'PENDING', at, event: 'submitted' }],
  }
}

/** True when `status` accepts `event` (for callers holding an untyped status). */
export function canApply(status: IntentStatus, event: IntentEvent['type']): boolean {
  return (accepts[status] as readonly string[]).includes(event)
}

/**
 * A copy of the lifecycle part of `state` that the transitions may change: its own objects for
 * `fill`, `failure`, each claim and each history entry (flat records of strings, numbers and
 * null). Only these fields: the callers pass a whole intent record, and a structuredClone of it
 * (the IntentOp, its signatures) was most of the cost of a step, thrown away when the store
 * merged the fields back over the record.
 */
function copyLifecycle(state: LifecycleState): LifecycleState {
  const copy = <T>(value: T): T => (value && typeof value === 'object' ? { ...value } : value)
  return {
    status: state.status,
    fill: copy(state.fill),
    claims: state.claims?.map(copy),
    failure: copy(state.failure),
    history: state.history?.map(copy),
  }
}

/**
 * Applies one event and returns the next state (the input is not changed). Throws
 * {@link IllegalTransitionError} for an event the current status does not accept.
 */
export function applyIntentEvent<S extends IntentStatus>(
  state: LifecycleState & { status: S },
  event: AcceptedEvent<S>,
  at: number,
): LifecycleState {
  const e = event as IntentEvent
  if (!canApply(state.status, e.type)) throw new IllegalTransitionError(state.status, e.type)
  const next = copyLifecycle(state)
  const claim = (chainId: number) => {
    const found = next.claims.find((c) => c.chainId === chainId)
    if (!found) throw new BaseError(`The intent has no claim on chain ${chainId}.`)
    return found
  }
  switch (e.type) {
    case 'fillSent':
      next.status = 'PRECONFIRMED'
      next.fill.txHash = e.txHash
      break
    case 'fillMined':
      next.status = 'FILLED'
      next.fill = { txHash: e.txHash, timestamp: e.timestamp }
      break
    case 'claimSent': {
      const c = claim(e.chainId)
      c.status = 'PRECONFIRMED'
      c.txHash = e.txHash
      break
    }
    case 'claimMined': {
      const c = claim(e.chainId)
      c.status = 'COMPLETED'
      c.txHash = e.txHash
      c.timestamp = e.timestamp
      if (next.claims.every((x) => x.status === 'COMPLETED')) next.status = 'COMPLETED'
      break
    }
    case 'failed':
      next.status = 'FAILED'
      next.failure = { reason: e.reason, step: e.step }
      for (const c of next.claims) if (c.status !== 'COMPLETED') c.status = 'FAILED'
      break
    case 'expired':
      next.status = 'EXPIRED'
      for (const c of next.claims) c.status = 'EXPIRED'
      break
  }
  if (next.status !== state.status) next.history.push({ status: next.status, at, event: e.type })
  return next
}

/** Which of an intent's recorded transactions the chains no longer hold (see {@link rewindLifecycle}). */
export type MissingSteps = {
  /** The recorded fill transaction is not on the destination chain. */
  fill: boolean
  /** Origin chains whose recorded claim transaction is not on chain. */
  claimChainIds: readonly number[]
}

/**
 * Takes an intent back to the last step its chains still hold, after chain state was restored
 * from an older save (docs/devnet.md, "Durable state"): a fill that is gone makes it PENDING
 * again with every claim PENDING; a claim that is gone makes that claim PENDING and a COMPLETED
 * intent FILLED. Final FAILED and EXPIRED intents are left as they are. The settlement then
 * takes it up again. This is the one transition that goes backwards, and it is recorded in the
 * history as `rewound`.
 */
export function rewindLifecycle(state: LifecycleState, missing: MissingSteps, at: number): LifecycleState {
  if (state.status === 'FAILED' || state.status === 'EXPIRED') return state
  const next = copyLifecycle(state)
  if (missing.fill) {
    next.status = 'PENDING'
    next.fill = { txHash: null, timestamp: null }
    for (const claim of next.claims)
      Object.assign(claim, { status: 'PENDING', txHash: null, timestamp: null })
  } else {
    for (const claim of next.claims)
      if (missing.claimChainIds.includes(claim.chainId))
        Object.assign(claim, { status: 'PENDING', txHash: null, timestamp: null })
    if (next.status === 'COMPLETED' && next.claims.some((claim) => claim.status !== 'COMPLETED'))
      next.status = 'FILLED'
  }
  if (next.status !== state.status || missing.claimChainIds.length > 0)
    next.history.push({ status: next.status, at, event: 'rewound' })
  return next
}
