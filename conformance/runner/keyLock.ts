import { createHash, randomBytes } from 'node:crypto'
import { mkdir, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { setTimeout as sleep } from 'node:timers/promises'

/** A lock older than this is from a run that died; it is taken over. */
const STALE_MS = 180_000

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
    try {
      await mkdir(dir)
      return () => rm(dir, { recursive: true, force: true })
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error
      const since = await stat(dir).then(
        (s) => Date.now() - s.mtimeMs,
        () => 0,
      )
      if (since > STALE_MS) await rm(dir, { recursive: true, force: true })
      else await sleep(50)
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
  const shared = join(dir, 'shared')
  await mkdir(shared, { recursive: true })
  const entry = join(shared, `${process.pid}-${randomBytes(6).toString('hex')}`)
  for (;;) {
    // Entered first, then the look: a scenario taking the target alone meanwhile waits for it.
    await writeFile(entry, '')
    if (!(await heldAlone(dir))) return () => rm(entry, { force: true })
    await rm(entry, { force: true })
    await sleep(POLL_MS)
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
      else await sleep(POLL_MS)
    }
  }
  for (;;) {
    const entries = await readdir(shared).catch(() => [] as string[])
    const live = []
    for (const name of entries)
      if (gone(Number(name.split('-')[0]))) await rm(join(shared, name), { force: true })
      else live.push(name)
    if (live.length === 0) return () => rm(alone, { recursive: true, force: true })
    await sleep(POLL_MS)
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
  return () => rm(entry, { force: true })
}
