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
  /** One pass: scan every chain up to its head, then pay out every accepted deposit, oldest first. */
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
  let timer: NodeJS.Timeout | undefined
  let running = false

  function pollOnce(): Promise<void> {
    polling ??= (async () => {
      try {
        for (const chain of context.chains.values()) await scanDeposits(context, { chain, maxBlockRange })
        for (const record of [...store.deposits.values()].sort((a, b) => a.seq - b.seq))
          if (record.status === 'processing') await payOut(context, record)
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
