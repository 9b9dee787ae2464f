import { randomBytes } from 'node:crypto'

/** A simulator the runner started itself, and how to stop it. */
export type LocalTarget = {
  target: string
  apiKey: string
  /** More keys it accepts, each with its own per-key state, for scenarios that set some to run side by side. */
  apiKeys: string[]
  stop: () => Promise<void>
}

/** Parameters of {@link startLocalTarget}. */
export type StartLocalTargetParameters = {
  apiKey?: string | undefined
  /** Reject a missing `x-api-version` (the simulator's `--strict-version`). */
  strictVersion?: boolean | undefined
  /** Chains to run (default {@link LOCAL_TARGET_CHAIN_IDS}). */
  chainIds?: readonly number[] | undefined
  /** How many more keys it accepts besides `apiKey` (default {@link LOCAL_TARGET_EXTRA_KEYS}). */
  extraKeys?: number | undefined
}

/**
 * More keys of a local target: per-key-state scenarios (deposits, webhooks) run this many more
 * side by side. With the run's key, as many as scenarios in flight by default (runConformance's
 * concurrency 8): 19 of the packs' scenarios set per-key state, and with 5 keys the cheap ones
 * queued for a key at the run's end. A key costs the simulator nothing until it is used.
 */
export const LOCAL_TARGET_EXTRA_KEYS = 7

/**
 * The deposit processor's poll interval on a local target, ms, while a chain's new blocks do not
 * wake it (its WebSocket subscription is not up yet, or failed): a deposit is seen sooner than
 * with the simulator's default 250 ms (the scenarios' time limits are unchanged).
 */
export const LOCAL_TARGET_DEPOSIT_POLL_MS = 50

/**
 * Its poll interval while every chain's new blocks wake it (Anvil's newHeads): the fallback only.
 */
export const LOCAL_TARGET_DEPOSIT_HEADS_POLL_MS = 500

/**
 * The chains of a local target: two are enough for every pack (deposits bridge from one to the
 * other; routes and withdrawals use Base), and start faster than the simulator's default four.
 * bin/intent-devnet.js starts these (earlyLocalTarget) before the CLI loads: keep them alike.
 */
export const LOCAL_TARGET_CHAIN_IDS = [10, 8453] as const

/**
 * Starts the whole simulator in this process on loopback (port 0), for a run without
 * `--target`: devnet chains, domain services, the control API and faults, through
 * `startSimulator` (the simulator's composition root). This is the one place that knows how.
 *
 * @example
 * const local = await startLocalTarget()
 * // … run against local.target with local.apiKey …
 * await local.stop()
 */
export async function startLocalTarget(parameters: StartLocalTargetParameters = {}): Promise<LocalTarget> {
  const apiKey = parameters.apiKey ?? `conformance-${randomBytes(6).toString('hex')}`
  const apiKeys = Array.from(
    { length: parameters.extraKeys ?? LOCAL_TARGET_EXTRA_KEYS },
    () => `conformance-${randomBytes(6).toString('hex')}`,
  )
  // The simulator's public entry; it adopts the Anvils bin/intent-devnet.js started before the
  // CLI loaded (`conformance` without --target).
  const { startSimulator } = await import('../../simulator/index')
  const sim = await startSimulator({
    // The chains placed and funded at build time when the bake applies, as `intent-devnet up`
    // starts them (INTENT_DEVNET_BOOT_STATE=0: placed and funded now).
    bootState: process.env.INTENT_DEVNET_BOOT_STATE !== '0',
    port: 0,
    host: '127.0.0.1',
    apiKey,
    extraApiKeys: apiKeys,
    depositPollIntervalMs: LOCAL_TARGET_DEPOSIT_POLL_MS,
    depositHeadsPollIntervalMs: LOCAL_TARGET_DEPOSIT_HEADS_POLL_MS,
    strictVersion: parameters.strictVersion,
    chainIds: parameters.chainIds ?? LOCAL_TARGET_CHAIN_IDS,
  })
  return { target: sim.baseUrl, apiKey: sim.apiKey, apiKeys, stop: () => sim.close() }
}
