import { payOut } from './payOut'
import { scanDeposits } from './scanDeposits'
import type { DepositContext } from './types'

/** Parameters of {@link watchDeposits}. */
export type WatchDepositsParameters = {
  /** Milliseconds between polls; null: no automatic polling (call `pollOnce`). */
  pollIntervalMs: number | null
  /** Largest block range of one scan. */
  maxBlockRange: number
  /** Called with errors of the automatic poll (the poll carries on). */
  onError?: ((error: unknown) => void) | undefined
}

/** The deposit watcher of {@link watchDeposits}. */
export type DepositWatcher = {
  /** One pass: scan every chain up to its head, then pay out every accepted deposit (side by side). */
  pollOnce(): Promise<void>
  /** Watches chains without a cursor from their current head, then polls every `pollIntervalMs`. */
  start(): Promise<void>
  /** Stops polling and waits for the pass in flight. */
  stop(): Promise<void>
}

/**
 * Creates the watcher that polls every chain for deposits and pays out the accepted ones. Passes
 * never overlap: a `pollOnce` during a pass waits for that pass.
 *
 * @example
 * const watcher = watchDeposits(context, { pollIntervalMs: 250, maxBlockRange: 500 })
 * await watcher.start()
 */
export function watchDeposits(context: DepositContext, parameters: WatchDepositsParameters): DepositWatcher {
  const { pollIntervalMs } = parameters
  const maxBlockRange = BigInt(parameters.maxBlockRange)
  const { store } = context
  let polling: Promise<void> | undefined
  // Chains whose last pass found new blocks: the next pass reads ahead (scanDeposits' readAhead).
  const active = new Set<number>()
  let timer: NodeJS.Timeout | undefined
  let running = false

  function pollOnce(): Promise<void> {
    polling ??= (async () => {
      try {
        // The chains side by side, then every accepted deposit's payout side by side (each chain's
        // sender queues its nonces): a pass takes its slowest part, not the sum. Each waits for
        // the others before an error ends the pass, so no payout is still in flight when the
        // next pass looks at the deposits.
        throwFirst(
          await Promise.allSettled(
            [...context.chains.values()].map(async (chain) => {
              const readAhead = active.has(chain.chainId)
              const { newBlocks } = await scanDeposits(context, { chain, maxBlockRange, readAhead })
              if (newBlocks) active.add(chain.chainId)
              else active.delete(chain.chainId)
            }),
          ),
        )
        const due = [...store.deposits.values()]
          .filter((record) => record.status === 'processing')
          .sort((a, b) => a.seq - b.seq)
        throwFirst(await Promise.allSettled(due.map((record) => payOut(context, record))))
      } finally {
        polling = undefined
      }
    })()
    return polling
  }

  const loop = async () => {
    if (!running) return
    try {
      await pollOnce()
    } catch (error) {
      parameters.onError?.(error)
    }
    if (running && pollIntervalMs !== null) timer = setTimeout(loop, pollIntervalMs)
  }

  return {
    pollOnce,
    async start() {
      if (running) return
      running = true
      for (const chain of context.chains.values())
        if (!store.cursors.has(chain.chainId))
          store.cursors.set(chain.chainId, await chain.publicClient.getBlockNumber({ cacheTime: 0 }))
      store.save()
      if (pollIntervalMs !== null) timer = setTimeout(loop, 0)
    },
    async stop() {
      running = false
      if (timer) clearTimeout(timer)
      await polling?.catch(() => undefined)
    },
  }
}

/** Throws the first rejection's reason, if any. */
function throwFirst(results: PromiseSettledResult<unknown>[]): void {
  for (const result of results) if (result.status === 'rejected') throw result.reason
}
