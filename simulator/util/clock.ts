/** The devnet's single clock: the API's deadlines and every chain's time follow it. */
export interface Clock {
  /** Current devnet time, unix seconds. */
  now(): number
  /** Current devnet time, unix milliseconds. */
  nowMs(): number
}

/**
 * A clock that follows the wall clock plus an offset that `advance` grows.
 *
 * @example
 * const clock = createSystemClock()
 * clock.advance(60)
 * clock.now() // a minute ahead of the wall clock
 */
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
