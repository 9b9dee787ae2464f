import { afterEach, beforeEach, inject } from 'vitest'
import type { TestProject } from 'vitest/node'
import type { DevnetManifest } from '../conformance/spec'
import { startSimulator } from '../simulator/startSimulator'

/** What the global setup starts: `test.provide.intentDevnetOptions` in the vitest config. */
export type IntentDevnetVitestOptions = {
  /** Chain ids (default 1, 10, 8453, 42161). */
  chains?: number[] | undefined
  apiKey?: string | undefined
  strictVersion?: boolean | undefined
  quoteTtlSeconds?: number | undefined
  swapFeeBps?: number | undefined
}

declare module 'vitest' {
  export interface ProvidedContext {
    /** The manifest of the devnet the global setup started (`inject('intentDevnet')`). */
    intentDevnet: DevnetManifest
    /** Options for the global setup (`test.provide` in the vitest config). */
    intentDevnetOptions?: IntentDevnetVitestOptions
  }
}

/**
 * Vitest global setup: starts one simulator (its chains and the service, on free ports) for the
 * whole run, provides its manifest as `inject('intentDevnet')`, and stops it when the run ends.
 *
 * @example
 * // vitest.config.ts
 * export default defineConfig({ test: { globalSetup: ['intent-devnet/vitest'] } })
 * // a test
 * const { service, chains, accounts } = inject('intentDevnet')
 */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const options = project.config.provide?.intentDevnetOptions ?? {}
  const sim = await startSimulator({
    port: 0,
    chainIds: options.chains,
    apiKey: options.apiKey,
    strictVersion: options.strictVersion,
    quoteTtlSeconds: options.quoteTtlSeconds,
    swapFeeBps: options.swapFeeBps,
    logger: false,
  })
  project.provide('intentDevnet', sim.manifest())
  return () => sim.close()
}

/** Calls the devnet's control API with the manifest's key. */
async function control<result>(manifest: DevnetManifest, path: string, body: unknown): Promise<result> {
  const response = await fetch(`${manifest.service.baseUrl}${path}`, {
    method: 'POST',
    headers: { 'x-api-key': manifest.service.apiKey, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  })
  if (!response.ok) throw new Error(`POST ${path} answered ${response.status}: ${await response.text()}`)
  return (await response.json()) as result
}

/** Snapshots every chain (and the clock) through `POST /_devnet/snapshot`; returns the snapshot id. */
export async function snapshotDevnet(manifest: DevnetManifest = inject('intentDevnet')): Promise<string> {
  return (await control<{ id: string }>(manifest, '/_devnet/snapshot', {})).id
}

/** Reverts every chain (and the clock) to a snapshot through `POST /_devnet/revert`. */
export async function revertDevnet(
  id: string,
  manifest: DevnetManifest = inject('intentDevnet'),
): Promise<void> {
  await control(manifest, '/_devnet/revert', { id })
}

/**
 * Per-test isolation on the shared devnet: a snapshot before each test of the calling file (or
 * `describe`), a revert after it, so every test starts from the same chain state and clock.
 * Chains and clock only: the service's own records (intents, quotes, deposits) are not rolled
 * back. Files that isolate this way must not run at the same time as other files that change
 * the chains (`fileParallelism: false`, or a project of their own).
 *
 * @example
 * import { isolateDevnet } from 'intent-devnet/vitest'
 * isolateDevnet()
 * test('a transfer', async () => { ... })
 */
export function isolateDevnet(): void {
  let id: string | undefined
  beforeEach(async () => {
    id = await snapshotDevnet()
  })
  afterEach(async () => {
    if (id !== undefined) await revertDevnet(id)
    id = undefined
  })
}
