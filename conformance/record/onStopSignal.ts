import { readFileSync } from 'node:fs'

/** How often the parents are looked at (a stop request through them is noticed this late at most). */
const WATCH_MS = 200
/** How many parents are watched: `npx` runs the bin as npm exec → sh -c → node. */
const WATCHED_ANCESTORS = 3

/**
 * Calls `stop` once when the recorder is asked to stop, whichever process is asked: SIGINT,
 * SIGTERM or SIGHUP to this process, or the end of one of its nearest parents. `npx intent-devnet
 * record` runs the bin under `npm exec` and `sh -c`, and neither passes a signal on to it: a
 * SIGTERM to npx ends npx and its shell and leaves the recorder running with nobody to stop it;
 * the recorder sees its parents end and stops as if it had got the signal. Returns a function
 * that stops watching.
 *
 * @example
 * const unwatch = onStopSignal(() => finish())
 */
export function onStopSignal(stop: (reason: string) => void): () => void {
  let stopped = false
  const once = (reason: string) => {
    if (stopped) return
    stopped = true
    unwatch()
    stop(reason)
  }
  const signals = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const
  const handlers = signals.map((signal) => [signal, () => once(signal)] as const)
  for (const [signal, handler] of handlers) process.once(signal, handler)
  const parent = process.ppid
  const ancestors = ancestorsOf(process.pid, WATCHED_ANCESTORS)
  const timer = setInterval(() => {
    if (process.ppid !== parent) return once(`its parent process ${parent} ended`)
    const gone = ancestors.find((pid) => !alive(pid))
    if (gone !== undefined) once(`its parent process ${gone} ended`)
  }, WATCH_MS)
  timer.unref()
  function unwatch() {
    clearInterval(timer)
    for (const [signal, handler] of handlers) process.off(signal, handler)
  }
  return unwatch
}

/** The nearest `count` parents of a process (init and the processes above a container's init left out). */
function ancestorsOf(pid: number, count: number): number[] {
  const out: number[] = []
  let current = pid
  while (out.length < count) {
    const parent = parentOf(current)
    if (parent === undefined || parent <= 1) break
    out.push(parent)
    current = parent
  }
  return out
}

/** A process's parent, from /proc (undefined where there is no /proc). */
function parentOf(pid: number): number | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8')
    // The command name may hold spaces and parentheses: the fields after its last ')'.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
    return Number(fields[1])
  } catch {
    return undefined
  }
}

/** Whether a process still runs (a zombie, ended but not yet reaped, does not). */
function alive(pid: number): boolean {
  try {
    process.kill(pid, 0)
  } catch {
    return false
  }
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8')
    return stat.slice(stat.lastIndexOf(')') + 2)[0] !== 'Z'
  } catch {
    return true
  }
}
