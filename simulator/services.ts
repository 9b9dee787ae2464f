import type { DevnetManifest } from '../conformance/spec'

/**
 * The services the HTTP app is built from. Routes reach them through `app.services`
 * (a Fastify decoration), never through module singletons; each is optional so the
 * HTTP layer can be tested alone, and a route whose service is absent answers 501.
 */
export type Services = {
  clock: Clock
  devnet?: DevnetService | undefined
}

/** The devnet's single clock: the API's deadlines and every chain's time follow it. */
export interface Clock {
  /** Current devnet time, unix seconds. */
  now(): number
  /** Current devnet time, unix milliseconds. */
  nowMs(): number
}

/** A clock that follows the wall clock plus an offset that `advance` grows. */
export function createSystemClock(): Clock & { advance(seconds: number): void; offsetSeconds(): number } {
  let offset = 0
  return {
    now: () => Math.floor(Date.now() / 1000) + offset,
    nowMs: () => Date.now() + offset * 1000,
    advance(seconds) {
      offset += seconds
    },
    offsetSeconds: () => offset,
  }
}

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
