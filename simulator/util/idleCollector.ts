import { performance } from 'node:perf_hooks'
import { setFlagsFromString } from 'node:v8'
import { runInNewContext } from 'node:vm'

/** Parameters of {@link startIdleCollector}. */
export type StartIdleCollectorParameters = {
  /** How often the process is looked at. Default 5 s. */
  intervalMs?: number | undefined
  /** Heap growth since the last collection that makes one worth it. Default 64 MB. */
  thresholdBytes?: number | undefined
  /** Event-loop utilization (0..1) over the last interval below which the process is idle (its own watchers and timers stay well under it; load is near 1). Default 0.25. */
  idleBelow?: number | undefined
}

/** V8's full collection: `--expose-gc`'s `gc` when the process has it, else exposed here. */
function fullCollection(): () => void {
  const exposed = (globalThis as { gc?: () => void }).gc
  if (exposed) return exposed
  // The documented way to reach V8's collector without a command-line flag: set the flag, then
  // read `gc` from a fresh context, which is created with the flag on. Only this module calls it.
  setFlagsFromString('--expose-gc')
  return runInNewContext('gc') as () => void
}

/**
 * Gives memory back once a burst of load is over. V8 rarely runs a full collection in a process
 * that has gone idle, so after sustained quoting the heap, and the resident memory with it, stays
 * at its peak (issue 13: 630 MB a minute after the load, 244 MB after one collection). Every
 * `intervalMs`, when the heap has grown by `thresholdBytes` since the last collection and the
 * event loop was idle over the interval, one full collection runs. Under load it never runs.
 *
 * @example
 * const collector = startIdleCollector()
 * // … on shutdown
 * collector.stop()
 */
export function startIdleCollector(parameters: StartIdleCollectorParameters = {}): { stop(): void } {
  const intervalMs = parameters.intervalMs ?? 5_000
  const thresholdBytes = parameters.thresholdBytes ?? 64 * 1024 * 1024
  const idleBelow = parameters.idleBelow ?? 0.25
  const collect = fullCollection()
  let baseline = process.memoryUsage().heapUsed
  // After a collection V8 keeps most of the heap it had committed and gives it back over later
  // collections: while the last one shrank the committed heap, idle time collects again.
  let shrinking = false
  let last = performance.eventLoopUtilization()
  const timer = setInterval(() => {
    const now = performance.eventLoopUtilization()
    const { utilization } = performance.eventLoopUtilization(now, last)
    last = now
    const { heapUsed } = process.memoryUsage()
    const grown = heapUsed - baseline >= thresholdBytes
    if (!grown) baseline = Math.min(baseline, heapUsed)
    if ((!grown && !shrinking) || utilization >= idleBelow) return
    const before = process.memoryUsage().heapTotal
    collect()
    const after = process.memoryUsage()
    shrinking = after.heapTotal < before
    baseline = after.heapUsed
  }, intervalMs)
  timer.unref()
  return { stop: () => clearInterval(timer) }
}
