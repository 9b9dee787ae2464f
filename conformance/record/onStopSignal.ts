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
 * the recorder sees its parents end and stops as if it had got the signal. A SIGINT to npx is
 * passed on to the shell only, which catches it and waits for the recorder: the recorder sees
 * that shell wake (it does nothing else while the recorder runs) and stops as well. Returns a
 * function that stops watching.
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
  const shell = npxShell(parent)
  // A stop and continue (Ctrl-Z, fg) wakes the shell too: that is not a request to stop.
  let continued = false
  const onContinue = () => {
    continued = true
  }
  if (shell) process.on('SIGCONT', onContinue)
  const timer = setInterval(() => {
    if (process.ppid !== parent) return once(`its parent process ${parent} ended`)
    const gone = ancestors.find((pid) => !alive(pid))
    if (gone !== undefined) return once(`its parent process ${gone} ended`)
    if (!shell) return
    const wakes = wakeUps(parent)
    if (continued || wakes === undefined) {
      continued = false
      shell.wakes = wakes ?? shell.wakes
    } else if (wakes !== shell.wakes)
      once(`its parent process ${parent} (the shell npx runs it with) was interrupted`)
  }, WATCH_MS)
  timer.unref()
  function unwatch() {
    clearInterval(timer)
    for (const [signal, handler] of handlers) process.off(signal, handler)
    process.off('SIGCONT', onContinue)
  }
  return unwatch
}

/**
 * The shell `npm exec` runs the bin with, and how often it has woken so far; undefined when this
 * process is not run that way. npm passes SIGINT (and SIGTERM) on to that shell only; `sh -c`
 * catches SIGINT while its command runs and waits for it to end, so the SIGINT goes no further
 * and ends nothing. The shell only sleeps in `wait` meanwhile (its one child is this process): it
 * wakes when a signal it catches arrives, which is what the watch above looks for.
 */
function npxShell(parent: number): { wakes: number } | undefined {
  if (process.env.npm_lifecycle_event !== 'npx') return undefined
  let name: string
  try {
    name = readFileSync(`/proc/${parent}/comm`, 'utf8').trim()
  } catch {
    return undefined
  }
  if (!['sh', 'dash', 'bash', 'zsh', 'ash', 'busybox'].includes(name)) return undefined
  const wakes = wakeUps(parent)
  return wakes === undefined ? undefined : { wakes }
}

/** How many times a process has been scheduled in (its context switches), from /proc. */
function wakeUps(pid: number): number | undefined {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8')
    const count = (name: string) => Number(status.match(new RegExp(`^${name}:\\s+(\\d+)`, 'm'))?.[1] ?? 0)
    return count('voluntary_ctxt_switches') + count('nonvoluntary_ctxt_switches')
  } catch {
    return undefined
  }
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
