import type { DevnetManifest } from '../../spec'

/** What the `/_devnet/` control API and `GET /health` need from the running devnet. */
export interface DevnetService {
  manifest(): DevnetManifest
  /** Moves the clock: the next block of every chain is stamped with the new time (`evm_setNextBlockTimestamp`) and mined. Returns the new time. */
  advanceClock(seconds: number): Promise<{ now: number }>
  /** `evm_snapshot` on every chain; one id for the set. */
  snapshot(): Promise<{ id: string }>
  /** `evm_revert` on every chain to the snapshot set `id`; false if unknown. */
  revert(id: string): Promise<boolean>
  /** Liveness of each chain's Anvil. */
  health(): Promise<{ chains: { chainId: number; up: boolean }[] }>
}
