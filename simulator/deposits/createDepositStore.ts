import { join } from 'node:path'
import { readJsonSync, writeJsonAtomicSync } from '../util/persistence'
import { type ConfigStore, type ConfigStoreState, createConfigStore } from './configStore'
import type { DepositRecord } from './depositRecord'
import type { TokenDirectory } from './tokenDirectory'

/** `deposit-processor.json`: everything of the processor but the outbox (which has its own log). */
type PersistedState = {
  version: 1
  config: ConfigStoreState
  cursors: Record<string, string>
  deposits: DepositRecord[]
}

/** Parameters of {@link createDepositStore}. */
export type CreateDepositStoreParameters = {
  tokens: TokenDirectory
  /** With a dir, the state is loaded from `deposit-processor.json` there and every `save()` rewrites it. */
  stateDir?: string | undefined
  clock: { nowMs(): number }
}

/** The processor's state: configuration and registrations, deposits, and each chain's scan cursor. */
export type DepositStore = {
  config: ConfigStore
  /** Deposits by id. */
  deposits: Map<string, DepositRecord>
  /** Per chain, the last block scanned. */
  cursors: Map<number, bigint>
  /** The sequence number of a new deposit (orders deposits; pages by it). */
  nextSeq(): number
  /** Applies `changes` to a deposit and stamps `updatedAt` (call `save()` to store it). */
  update(record: DepositRecord, changes: Partial<DepositRecord>): void
  /** The devnet time, ISO 8601. */
  isoNow(): string
  /** Writes the whole state atomically and durably (a no-op without a state dir). */
  save(): void
}

/**
 * Creates the deposit processor's store, loading what a previous run saved in the state dir.
 *
 * @example
 * const store = createDepositStore({ tokens, stateDir: '.state', clock: devnet })
 * store.cursors.set(8453, 120n)
 * store.save()
 */
export function createDepositStore(parameters: CreateDepositStoreParameters): DepositStore {
  const { clock } = parameters
  const path = parameters.stateDir ? join(parameters.stateDir, 'deposit-processor.json') : undefined
  const persisted = path ? readJsonSync<PersistedState>(path) : undefined
  const config = createConfigStore({ tokens: parameters.tokens, state: persisted?.config })
  const cursors = new Map<number, bigint>(
    Object.entries(persisted?.cursors ?? {}).map(([chainId, block]) => [Number(chainId), BigInt(block)]),
  )
  const deposits = new Map<string, DepositRecord>((persisted?.deposits ?? []).map((d) => [d.id, d]))
  let seq = Math.max(0, ...[...deposits.values()].map((d) => d.seq))
  const isoNow = () => new Date(clock.nowMs()).toISOString()

  return {
    config,
    deposits,
    cursors,
    nextSeq: () => ++seq,
    update(record, changes) {
      Object.assign(record, changes, { updatedAt: isoNow() })
    },
    isoNow,
    save() {
      if (!path) return
      const state: PersistedState = {
        version: 1,
        config: config.snapshot(),
        cursors: Object.fromEntries([...cursors].map(([chainId, block]) => [chainId, block.toString()])),
        deposits: [...deposits.values()],
      }
      writeJsonAtomicSync(path, state)
    },
  }
}
