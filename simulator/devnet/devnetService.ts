import type { DevnetManifest } from '../../spec'

/** What the `/_devnet/` control API and `GET /health` need from the running devnet. */
export interface DevnetService {
  manifest(): DevnetManifest
  /** Moves the service clock and `evm_increaseTime` + mines on every chain. Returns the new time. */
  advanceClock(seconds: number): Promise<{ now: number }>
  /** `anvil_snapshot` on every chain; one id for the set. */
  snapshot(): Promise<{ id: string }>
  /** `anvil_revert` on every chain to the snapshot set `id`; false if unknown. */
  revert(id: string): Promise<boolean>
  /** Liveness of each chain's Anvil. */
  health(): Promise<{ chains: { chainId: number; up: boolean }[] }>
}
