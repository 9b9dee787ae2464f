import { createHash } from 'node:crypto'
import { mkdir, rm, stat } from 'node:fs/promises'
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
