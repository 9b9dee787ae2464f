import { createHash, randomBytes } from 'node:crypto'
import { mkdir, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

/** A lock older than this is from a run that died; it is taken over. */
const STALE_MS = 180_000

/**
 * The releases of this process, by lock folder: a waiter of this process is woken by them at
 * once; one of another process still sees them at its next look (each wait is at most its poll).
 * `generation` counts them, so a release between a waiter's look and its wait is not missed.
 */
const releases = new Map<string, { generation: number; waiters: Set<() => void> }>()

function releasesOf(dir: string) {
  let entry = releases.get(dir)
  if (!entry) {
    entry = { generation: 0, waiters: new Set() }
    releases.set(dir, entry)
  }
  return entry
}

/** A lock of `dir` was let go by this process: its waiters look again now. */
function released(dir: string): void {
  const entry = releasesOf(dir)
  entry.generation++
  for (const wake of [...entry.waiters]) wake()
}

/** Waits `ms`, or less: until this process lets a lock of `dir` go (at once if it did since `generation`). */
function nextLook(dir: string, generation: number, ms: number): Promise<void> {
  const entry = releasesOf(dir)
  if (entry.generation !== generation) return Promise.resolve()
  return new Promise((resolve) => {
    const wake = () => {
      clearTimeout(timer)
      entry.waiters.delete(wake)
      resolve()
    }
    const timer = setTimeout(wake, ms)
    entry.waiters.add(wake)
  })
}

/** Removes a lock's file or folder, then wakes this process's waiters of `key` (the lock, or the folder of shares). */
async function letGo(key: string, path: string): Promise<void> {
  await rm(path, { recursive: true, force: true })
  released(key)
}

/**
 * Holds the per-key state of one target (the deposit processor's configuration) for the caller
 * alone, across runs and processes on this machine (a lock directory in the temp folder, named
 * by a hash of target and key), and returns its release.
 *
 * @example
 * const release = await lockApiKey(target, apiKey)
 * try { await runScenario(scenario, context) } finally { await release() }
 */
export async function lockApiKey(target: string, apiKey: string): Promise<() => Promise<void>> {
  const name = createHash('sha256').update(`${target}\n${apiKey}`).digest('hex').slice(0, 24)
  const dir = join(tmpdir(), `intent-devnet-conformance-${name}.lock`)
  for (;;) {
    const generation = releasesOf(dir).generation
    try {
      await mkdir(dir)
      return () => letGo(dir, dir)
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error
      const since = await stat(dir).then(
        (s) => Date.now() - s.mtimeMs,
        () => 0,
      )
      if (since > STALE_MS) await rm(dir, { recursive: true, force: true })
      else await nextLook(dir, generation, 50)
    }
  }
}

/** How long a holder of a target's lock waits between two looks. */
const POLL_MS = 25

/** The folder of one target's run lock on this machine (see {@link shareTarget}). */
function targetLockDir(target: string): string {
  const name = createHash('sha256').update(target).digest('hex').slice(0, 24)
  return join(tmpdir(), `intent-devnet-conformance-${name}.target`)
}

/** Whether the process of a lock entry named `<pid>-…` (or holding `pid`) is gone. */
function gone(pid: number): boolean {
  if (!Number.isInteger(pid) || pid <= 0) return false
  try {
    process.kill(pid, 0)
    return false
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'ESRCH'
  }
}

/** Whether a scenario that runs alone holds the target (a holder whose process is gone is cleared). */
async function heldAlone(dir: string): Promise<boolean> {
  const alone = join(dir, 'alone')
  const pid = await readFile(join(alone, 'pid'), 'utf8').then(Number, () => undefined)
  if (pid !== undefined && gone(pid)) {
    await rm(alone, { recursive: true, force: true })
    return false
  }
  return stat(alone).then(
    () => true,
    () => false,
  )
}

/**
 * Shares one target with the scenarios of other runs on this machine (shards side by side
 * against one target), as a scenario that may run beside others; returns its release. It waits
 * while a scenario of another run that must run alone (it moves the clock, prices, faults:
 * schedule.ts) holds the target, and makes such a scenario wait until it is done.
 *
 * @example
 * const release = await shareTarget(target)
 * try { await runScenario(scenario, context) } finally { await release() }
 */
export async function shareTarget(target: string): Promise<() => Promise<void>> {
  const dir = targetLockDir(target)
  const alone = join(dir, 'alone')
  const shared = join(dir, 'shared')
  await mkdir(shared, { recursive: true })
  const entry = join(shared, `${process.pid}-${randomBytes(6).toString('hex')}`)
  for (;;) {
    const generation = releasesOf(alone).generation
    // Entered first, then the look: a scenario taking the target alone meanwhile waits for it.
    await writeFile(entry, '')
    if (!(await heldAlone(dir))) return () => letGo(shared, entry)
    await letGo(shared, entry)
    await nextLook(alone, generation, POLL_MS)
  }
}

/**
 * Holds one target for a scenario that must run alone, against the scenarios of other runs on
 * this machine too (see {@link shareTarget}): once no other such scenario holds it and every
 * scenario sharing it has ended (those of processes that are gone do not count). Returns its release.
 *
 * @example
 * const release = await holdTargetAlone(target)
 */
export async function holdTargetAlone(target: string): Promise<() => Promise<void>> {
  const dir = targetLockDir(target)
  const alone = join(dir, 'alone')
  const shared = join(dir, 'shared')
  await mkdir(shared, { recursive: true })
  for (;;) {
    const generation = releasesOf(alone).generation
    try {
      await mkdir(alone)
      await writeFile(join(alone, 'pid'), String(process.pid))
      break
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error
      const since = await stat(alone).then(
        (s) => Date.now() - s.mtimeMs,
        () => 0,
      )
      if (since > STALE_MS) await rm(alone, { recursive: true, force: true })
      else if (!(await heldAlone(dir))) continue
      else await nextLook(alone, generation, POLL_MS)
    }
  }
  for (;;) {
    const generation = releasesOf(shared).generation
    const entries = await readdir(shared).catch(() => [] as string[])
    const live = []
    for (const name of entries)
      if (gone(Number(name.split('-')[0]))) await rm(join(shared, name), { force: true })
      else live.push(name)
    if (live.length === 0) return () => letGo(alone, alone)
    await nextLook(shared, generation, POLL_MS)
  }
}

/**
 * Turns a hold of {@link holdTargetAlone} into a share ({@link shareTarget}) at once, for the
 * rest of a scenario that no longer needs the target alone: the share is entered before the
 * hold is let go, so another run's scenario that must run alone still waits for that rest.
 * Returns the share's release.
 *
 * @example
 * const release = await shareAfterAlone(target, await holdTargetAlone(target))
 */
export async function shareAfterAlone(
  target: string,
  releaseAlone: () => Promise<void>,
): Promise<() => Promise<void>> {
  const shared = join(targetLockDir(target), 'shared')
  await mkdir(shared, { recursive: true })
  const entry = join(shared, `${process.pid}-${randomBytes(6).toString('hex')}`)
  await writeFile(entry, '')
  await releaseAlone()
  return () => letGo(shared, entry)
}
