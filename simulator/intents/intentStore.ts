import { randomBytes } from 'node:crypto'
import { mkdir, readdir } from 'node:fs/promises'
import { join } from 'node:path'
import { BaseError } from '../../spec/BaseError'
import type { EventBus } from '../events/eventBus'
import type { IntentStepEvent } from '../events/schemas'
import { readJsonSync, writeJsonAtomic } from '../util/persistence'
import {
  type AcceptedEvent,
  applyIntentEvent,
  type IntentEvent,
  type IntentStatus,
  initialLifecycle,
  type LifecycleState,
  type MissingSteps,
  rewindLifecycle,
} from './lifecycle'

/** An accepted intent: what was submitted, and where it is in its lifecycle. */
export type IntentRecord<Payload = unknown> = {
  /** Large integer string (spec: Submission result). */
  id: string
  /**
   * The id of the kept quote it was submitted from, or null for an operation submitted whole.
   * (The record names no API version: the edges that show one derive it from this.)
   */
  intentId: string | null
  createdAt: number
  sponsor: `0x${string}`
  recipient: `0x${string}`
  destinationChainId: number
  /** Fill deadline, unix seconds: past it an unfilled intent is EXPIRED. */
  fillDeadline: number
  /** A key that identifies the intent's content: a second submission of it is a conflict. */
  dedupeKey: string
  /** What the settlement needs: the intent and its signatures. */
  payload: Payload
  /** Devnet time of the blanc quote it was submitted from (absent for alps). */
  quotedAt?: number | undefined
} & LifecycleState

/** Parameters of {@link createIntentStore}. */
export type CreateIntentStoreParameters = {
  /** With a directory, every change is written there (atomically and durably) and loaded at the next start. */
  stateDir?: string | undefined
  now: () => number
  /** Every lifecycle step is published here (the explorer's live feed). */
  events: Pick<EventBus, 'publish'>
}

/** The intent was submitted before (same dedupeKey): a second submission is a conflict. */
export class DuplicateIntentError extends BaseError {
  override name = 'Intent.DuplicateIntentError'
  constructor(readonly existingId: string) {
    super(`This intent was already submitted (id ${existingId}).`)
  }
}

/** The intent store: every accepted intent, durable with a state directory. */
export type IntentStore<Payload = unknown> = {
  /** Loads what the state directory holds. */
  load(): Promise<void>
  /** Accepts a new intent as PENDING; throws {@link DuplicateIntentError} for a repeated dedupeKey. */
  create(
    input: Omit<IntentRecord<Payload>, 'id' | 'createdAt' | keyof LifecycleState> & {
      originChainIds: number[]
    },
  ): Promise<IntentRecord<Payload>>
  get(id: string): IntentRecord<Payload> | undefined
  getByIntentId(intentId: string): IntentRecord<Payload> | undefined
  /** Applies a lifecycle event through the state machine and persists the result. */
  apply<S extends IntentStatus>(
    id: string,
    event: AcceptedEvent<S> | IntentEvent,
  ): Promise<IntentRecord<Payload>>
  /**
   * Takes an intent back to the last step the chains hold (restored chain state lost some of its
   * transactions; see `rewindLifecycle`) and persists it.
   */
  rewind(id: string, missing: MissingSteps): Promise<IntentRecord<Payload>>
  /** Intents not in a final status, e.g. to resume after a restart. */
  inFlight(): IntentRecord<Payload>[]
  all(): IntentRecord<Payload>[]
  /** Resolves once every write so far is on disk. */
  flush(): Promise<void>
}

/**
 * Creates the intent store: one JSON file per intent (`intents/<id>.json` in the state dir).
 * Writes are serialized and each is atomic and durable (`writeJsonAtomic`: temp file, flush,
 * rename), so a crash never leaves a half-written intent.
 *
 * @example
 * const store = createIntentStore({ stateDir: '.state', now: () => devnet.now(), events })
 * await store.load()
 */
export function createIntentStore<Payload = unknown>({
  stateDir,
  now,
  events,
}: CreateIntentStoreParameters): IntentStore<Payload> {
  const records = new Map<string, IntentRecord<Payload>>()
  const byIntentId = new Map<string, string>()
  const byDedupeKey = new Map<string, string>()
  const dir = stateDir ? join(stateDir, 'intents') : undefined
  let writes: Promise<void> = Promise.resolve()

  function index(record: IntentRecord<Payload>) {
    records.set(record.id, record)
    if (record.intentId) byIntentId.set(record.intentId, record.id)
    byDedupeKey.set(record.dedupeKey, record.id)
  }

  function persist(record: IntentRecord<Payload>): Promise<void> {
    if (!dir) return Promise.resolve()
    const snapshot = structuredClone(record)
    // One chain of writes keeps them in order; each write is atomic on its own.
    writes = writes
      .catch(() => undefined)
      .then(() => writeJsonAtomic(join(dir, `${record.id}.json`), snapshot))
    return writes
  }

  return {
    async load() {
      if (!dir) return
      await mkdir(dir, { recursive: true })
      for (const name of await readdir(dir)) {
        // Leftover temp files of a crash mid-write end in .tmp: the intent's .json is whole.
        if (!name.endsWith('.json')) continue
        const record = readJsonSync<IntentRecord<Payload>>(join(dir, name))
        if (record) index(record)
      }
    },
    async create(input) {
      const existing = byDedupeKey.get(input.dedupeKey)
      if (existing) throw new DuplicateIntentError(existing)
      const { originChainIds, ...rest } = input
      const at = now()
      const record: IntentRecord<Payload> = {
        ...rest,
        id: BigInt(`0x${randomBytes(16).toString('hex')}`).toString(),
        createdAt: at,
        ...initialLifecycle(originChainIds, at),
      }
      index(record)
      await persist(record)
      events.publish(stepEvent(record, { type: 'submitted' }, at))
      return record
    },
    get: (id) => records.get(id),
    getByIntentId(intentId) {
      const id = byIntentId.get(intentId)
      return id === undefined ? undefined : records.get(id)
    },
    async apply(id, event) {
      const record = records.get(id)
      if (!record) throw new BaseError(`No intent with id ${id}.`)
      const at = now()
      const next = { ...record, ...applyIntentEvent(record, event, at) }
      records.set(id, next)
      await persist(next)
      events.publish(stepEvent(next, event, at))
      return next
    },
    async rewind(id, missing) {
      const record = records.get(id)
      if (!record) throw new BaseError(`No intent with id ${id}.`)
      const next = { ...record, ...rewindLifecycle(record, missing, now()) }
      records.set(id, next)
      await persist(next)
      return next
    },
    inFlight: () =>
      [...records.values()].filter((r) => !['COMPLETED', 'FAILED', 'EXPIRED'].includes(r.status)),
    all: () => [...records.values()],
    flush: () => writes,
  }
}

/** The live-feed event of one lifecycle step of `record` (its state after the step). */
function stepEvent(
  record: IntentRecord<unknown>,
  event: IntentEvent | { type: 'submitted' },
  at: number,
): IntentStepEvent {
  return {
    type: 'intent',
    id: record.id,
    intentId: record.intentId,
    step: event.type,
    status: record.status,
    chainId:
      'chainId' in event ? event.chainId : event.type.startsWith('fill') ? record.destinationChainId : null,
    transactionHash: 'txHash' in event ? event.txHash : null,
    reason: event.type === 'failed' ? `${event.step}: ${event.reason}` : null,
    at,
  }
}
