import { withRetry } from 'viem'
import { describeRevert } from './describeRevert'
import { isTransient } from './isTransient'
import type { SettlementContext } from './types'

/** Parameters of {@link retryTransient}. */
export type RetryTransientParameters = {
  /** What is tried, for the log line of each retry (`send fill`, `find claim`). */
  what: string
  /** Retries after the first attempt (default 3). */
  retryCount?: number | undefined
}

/**
 * Runs `fn`, retrying with backoff (200, 400, 800 ms) what failed for want of a node; a revert,
 * or any other error, is thrown at once.
 *
 * @example
 * const hash = await retryTransient(context, { what: 'send fill' }, () => sender.send(tx))
 */
export function retryTransient<T>(
  context: Pick<SettlementContext, 'log'>,
  { what, retryCount = 3 }: RetryTransientParameters,
  fn: () => Promise<T>,
): Promise<T> {
  return withRetry(fn, {
    retryCount,
    delay: ({ count }) => 100 * 2 ** (count + 1),
    shouldRetry({ count, error }) {
      if (!isTransient(error)) return false
      context.log(`${what}: ${describeRevert(error)}; retry ${count + 1}`)
      return true
    },
  })
}
