import { payOut } from './payOut'
import { scanDeposits } from './scanDeposits'
import type { DepositChain, DepositContext } from './types'

/** Parameters of {@link watchDeposits}. */
export type WatchDepositsParameters = {
  /** Milliseconds between polls; null: no automatic polling nor waking by blocks (call `pollOnce`). */
  pollIntervalMs: number | null
  /**
   * Milliseconds between polls while every chain's new blocks wake the watcher
   * (DepositChain.watchHeads): the poll is only the fallback then (a revert that mines no block, a
   * subscription that went quiet). Default `pollIntervalMs`.
   */
  headsPollIntervalMs?: number | undefined
  /** Largest block range of one scan. */
  maxBlockRange: number
  /** Called with errors of the automatic poll (the poll carries on). */
  onError?: ((error: unknown) => void) | undefined
}

/** The deposit watcher of {@link watchDeposits}. */
export type DepositWatcher = {
  /** One pass: scan every chain up to its head, then pay out every accepted deposit (side by side). */
  pollOnce(): Promise<void>
  /**
   * Watches chains without a cursor from their current head, then polls every `pollIntervalMs`,
   * and is woken by each new block of a chain that has `watchHeads` (subscribed in the background).
   */
  start(): Promise<void>
  /** Stops polling and waits for the pass in flight. */
  stop(): Promise<void>
}

/**
 * Creates the watcher that polls every chain for deposits and pays out the accepted ones. Passes
 * never overlap: a `pollOnce` during a pass waits for that pass. A chain whose node reports new
 * blocks (DepositChain.watchHeads: Anvil's `newHeads` over WebSocket) wakes a pass of that chain
 * as a block is mined, so a deposit is seen at once, not at the next poll; blocks that come while
 * a pass runs wake one more pass after it (one in flight, one queued, their chains merged). The
 * poll stays, slower then (`headsPollIntervalMs`), and as it was for a chain without them.
 *
 * @example
 * const watcher = watchDeposits(context, { pollIntervalMs: 250, maxBlockRange: 500 })
 * await watcher.start()
 */
export function watchDeposits(context: DepositContext, parameters: WatchDepositsParameters): DepositWatcher {
  const { pollIntervalMs } = parameters
  const maxBlockRange = BigInt(parameters.maxBlockRange)
  const { store } = context
  const report = (error: unknown) => parameters.onError?.(error)
  let inFlight: Promise<void> | undefined
  // The chains of the pass that waits for the one in flight (woken by blocks meanwhile).
  let queued: Set<number> | undefined
  // Chains whose last pass found new blocks: the next pass reads ahead (scanDeposits' readAhead).
  const active = new Set<number>()
  // Chains whose newHeads subscription is live, with the head its last notification named.
  const heads = new Map<number, bigint | undefined>()
  const subscribing: Promise<{ close(): void } | undefined>[] = []
  let timer: NodeJS.Timeout | undefined
  let running = false

  /** One pass over `chainIds` (all: a poll) that then pays out every due deposit. */
  function runPass(chainIds: ReadonlySet<number> | undefined): Promise<void> {
    const pass: Promise<void> = (async () => {
      // The chains side by side, then every accepted deposit's payout side by side (each chain's
      // sender queues its nonces): a pass takes its slowest part, not the sum. Each waits for
      // the others before an error ends the pass, so no payout is still in flight when the
      // next pass looks at the deposits.
      throwFirst(
        await Promise.allSettled(
          [...context.chains.values()]
            .filter((chain) => chainIds === undefined || chainIds.has(chain.chainId))
            .map(async (chain) => {
              const readAhead = active.has(chain.chainId)
              // A woken pass knows the head from the block's notification; a poll reads it.
              const knownHead = chainIds ? heads.get(chain.chainId) : undefined
              const { newBlocks } = await scanDeposits(context, {
                chain,
                maxBlockRange,
                readAhead,
                knownHead,
              })
              if (newBlocks) active.add(chain.chainId)
              else active.delete(chain.chainId)
            }),
        ),
      )
      const due = [...store.deposits.values()]
        .filter((record) => record.status === 'processing')
        .sort((a, b) => a.seq - b.seq)
      throwFirst(await Promise.allSettled(due.map((record) => payOut(context, record))))
    })().finally(() => {
      if (inFlight === pass) inFlight = undefined
    })
    inFlight = pass
    return pass
  }

  function pollOnce(): Promise<void> {
    return inFlight ?? runPass(undefined)
  }

  /** A block was mined on `chainId`: a pass of it now, or after the pass in flight. */
  function wake(chainId: number): void {
    if (!running) return
    if (queued) {
      queued.add(chainId)
      return
    }
    if (!inFlight) {
      runPass(new Set([chainId])).catch(report)
      return
    }
    const chains = new Set([chainId])
    queued = chains
    inFlight
      .catch(() => undefined)
      .then(() => {
        queued = undefined
        // A pass started meanwhile (a poll) read the heads after these blocks.
        if (running) return inFlight ?? runPass(chains)
      })
      .catch(report)
  }

  const arm = (ms: number) => {
    timer = setTimeout(loop, ms)
  }
  const interval = () =>
    heads.size === context.chains.size ? (parameters.headsPollIntervalMs ?? pollIntervalMs!) : pollIntervalMs!
  const loop = async () => {
    timer = undefined
    if (!running) return
    try {
      await pollOnce()
    } catch (error) {
      report(error)
    }
    if (running && pollIntervalMs !== null && timer === undefined) arm(interval())
  }

  /** Subscribes to a chain's new blocks; on failure or when it ends, the chain is polled as before. */
  const subscribe = (chain: DepositChain) => {
    let down = false
    return chain
      .watchHeads?.({
        onHead(number) {
          heads.set(chain.chainId, number)
          wake(chain.chainId)
        },
        onDown(error) {
          down = true
          heads.delete(chain.chainId)
          report(error)
          // Back to the poll's own interval at once, not after a slow one.
          if (running && timer !== undefined) {
            clearTimeout(timer)
            arm(pollIntervalMs!)
          }
        },
      })
      .then(
        (subscription) => {
          if (!running) {
            subscription.close()
            return undefined
          }
          if (!down && !heads.has(chain.chainId)) heads.set(chain.chainId, undefined)
          return subscription
        },
        // No WebSocket there (a node behind a plain HTTP proxy, …): the poll alone, as before.
        () => undefined,
      )
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
      if (pollIntervalMs === null) return
      // In the background: the start does not wait for the handshakes (the poll covers until then).
      for (const chain of context.chains.values()) {
        const subscription = subscribe(chain)
        if (subscription) subscribing.push(subscription)
      }
      arm(0)
    },
    async stop() {
      running = false
      if (timer) clearTimeout(timer)
      timer = undefined
      for (const subscription of await Promise.all(subscribing.splice(0))) subscription?.close()
      heads.clear()
      // The queued pass runs no more (running is false); the one in flight ends.
      await inFlight?.catch(() => undefined)
    },
  }
}

/** Throws the first rejection's reason, if any. */
function throwFirst(results: PromiseSettledResult<unknown>[]): void {
  for (const result of results) if (result.status === 'rejected') throw result.reason
}
