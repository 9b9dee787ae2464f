import { createRequire } from 'node:module'
import { afterAll, afterEach, beforeAll, beforeEach, inject } from 'vitest'
import type { TestProject } from 'vitest/node'
import { createControlClient, type DevnetManifest, type DevnetProcessOptions } from '../spec'

/**
 * What the global setup starts: `test.provide.intentDevnetOptions` in the vitest config. Every
 * start option (`chainIds`, `rpcPort`, `mnemonic`, `accountCount`, `balance`, `blockTime`, …:
 * spec/startOptions.ts, the same list as `intent-devnet up`'s flags), and `perWorker`.
 */
export type IntentDevnetVitestOptions = DevnetProcessOptions & {
  /**
   * One devnet per worker (as many as the project's `maxWorkers`) instead of one for the run:
   * files then run in parallel, each on its worker's devnet (`workerDevnet()`), and may isolate
   * with snapshot/revert without `fileParallelism: false` (a project vitest 4 runs after all the
   * parallel ones). Default false.
   */
  perWorker?: boolean | undefined
}

declare module 'vitest' {
  export interface ProvidedContext {
    /** The manifest of the devnet the global setup started (`inject('intentDevnet')`; with `perWorker`, the first). */
    intentDevnet: DevnetManifest
    /** With `perWorker`: every worker's devnet, the one of `VITEST_POOL_ID` n at n - 1 (`workerDevnet()`). */
    intentDevnets?: DevnetManifest[]
    /** Options for the global setup (`test.provide` in the vitest config). */
    intentDevnetOptions?: IntentDevnetVitestOptions
  }
}

/**
 * Vitest global setup: starts one devnet (its chains and the service, on free ports, in a child
 * process: `intent-devnet up`) for the whole run, or one per worker with `perWorker`, provides
 * its manifest as `inject('intentDevnet')`, and stops it when the run ends.
 *
 * @example
 * // vitest.config.ts
 * export default defineConfig({ test: { globalSetup: ['intent-devnet/vitest'] } })
 * // a test
 * const { service, chains, accounts } = inject('intentDevnet')
 */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const { perWorker, ...options } = project.config.provide?.intentDevnetOptions ?? {}
  // Each devnet in a process of its own (integrations/devnetProcess.cjs, as the Jest setup does):
  // its service runs on a core of its own rather than on vitest's main thread, and it stops
  // with this process however the run ends.
  const { startDevnetProcess } = createRequire(import.meta.url)('./devnetProcess.cjs') as {
    startDevnetProcess: (options: DevnetProcessOptions) => Promise<{
      manifest: DevnetManifest
      stop: () => Promise<void>
    }>
  }
  const count = perWorker ? Math.max(1, project.config.maxWorkers) : 1
  const started = await Promise.allSettled(Array.from({ length: count }, () => startDevnetProcess(options)))
  const sims = started.flatMap((result) => (result.status === 'fulfilled' ? [result.value] : []))
  const failed = started.find((result) => result.status === 'rejected')
  if (failed) {
    await Promise.all(sims.map((sim) => sim.stop()))
    throw failed.reason
  }
  project.provide('intentDevnet', sims[0]!.manifest)
  if (perWorker)
    project.provide(
      'intentDevnets',
      sims.map((sim) => sim.manifest),
    )
  return async () => {
    await Promise.all(sims.map((sim) => sim.stop()))
  }
}

/**
 * The manifest of the devnet this test file runs against: with `perWorker`, its worker's
 * (`VITEST_POOL_ID`: no other file runs in that worker at the same time); otherwise the run's
 * one devnet, as `inject('intentDevnet')`.
 */
export function workerDevnet(): DevnetManifest {
  const all = inject('intentDevnets')
  if (!all) return inject('intentDevnet')
  const manifest = all[Number(process.env.VITEST_POOL_ID) - 1]
  if (!manifest)
    throw new Error(
      `No devnet for worker ${process.env.VITEST_POOL_ID}: the global setup started ${all.length}.`,
    )
  return manifest
}

/** The contract's control client for a devnet (spec/controlClient.ts). */
const control = (manifest: DevnetManifest) =>
  createControlClient({ baseUrl: manifest.service.baseUrl, apiKey: manifest.service.apiKey })

/** Snapshots every chain (and the clock) through `POST /_devnet/snapshot`; returns the snapshot id. */
export async function snapshotDevnet(manifest: DevnetManifest = workerDevnet()): Promise<string> {
  return control(manifest).snapshot()
}

/** Reverts every chain (and the clock) to a snapshot through `POST /_devnet/revert`. */
export async function revertDevnet(id: string, manifest: DevnetManifest = workerDevnet()): Promise<void> {
  await control(manifest).revert(id)
}

/**
 * Isolation on the shared devnet: a snapshot before each test of the calling file (or
 * `describe`), a revert after it, so every test starts from the same chain state and clock; with
 * `{ scope: 'file' }`, one snapshot before the file's (or `describe`'s) `beforeAll` hooks that
 * follow the call and one revert after it, so the next file starts from the same chains.
 * Chains and clock only: the service's own records (intents, quotes, deposits) are not rolled
 * back. Files that isolate this way must not run at the same time as other files that change
 * the same chains (`fileParallelism: false`, a project of their own, or `perWorker`).
 *
 * @example
 * import { isolateDevnet } from 'intent-devnet/vitest'
 * isolateDevnet({ scope: 'file' }) // what the file's beforeAll sets up is undone after it
 * isolateDevnet() // and each test's changes after each test
 * test('a transfer', async () => { ... })
 */
export function isolateDevnet(options: { scope?: 'test' | 'file' | undefined } = {}): void {
  const [before, after] = options.scope === 'file' ? [beforeAll, afterAll] : [beforeEach, afterEach]
  let id: string | undefined
  before(async () => {
    id = await snapshotDevnet()
  })
  after(async () => {
    if (id !== undefined) await revertDevnet(id)
    id = undefined
  })
}
