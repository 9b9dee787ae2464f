import type { Clock } from '../util/clock'
import { bootDevnet, DEFAULT_CHAIN_IDS } from './actions/boot'
import { bootChain } from './actions/bootChain'
import { checkpoint, startCheckpoints } from './actions/checkpoint'
import { advanceClock, nowSeconds } from './actions/clock'
import { manifest } from './actions/manifest'
import { revert } from './actions/revert'
import { snapshot } from './actions/snapshot'
import { stop } from './actions/stop'
import type { AnvilInstance } from './anvil'
import type { DevnetChain } from './chain'
import type { DevnetService } from './devnetService'
import type { ChainBootReport, DevnetServiceInfo } from './devnetState'
import { DevnetError } from './errors'
import type { DevKeys } from './keys'
import type { StartDevnetParameters } from './startDevnetParameters'

export type { AnvilInstance, ChainBootReport, DevnetChain, DevnetServiceInfo, StartDevnetParameters }
export { bootChain, DEFAULT_CHAIN_IDS, DevnetError }

/** A running devnet: the chains, the single clock, and the control API's service. */
export type Devnet = DevnetService &
  Clock & {
    keys: DevKeys
    /** Every chain, in `chainIds` order. */
    chains: readonly DevnetChain[]
    /** One chain by id; throws if the devnet does not run it. */
    chain(chainId: number): DevnetChain
    /** Seconds the clock runs ahead of the wall clock. */
    offsetSeconds(): number
    /** Gives the manifest its `service` part (call once the HTTP server listens). */
    setServiceInfo(info: DevnetServiceInfo): void
    /** How each chain booted. */
    boot: readonly ChainBootReport[]
    /**
     * True when the chains may hold less than the services' durable data: a chain was loaded from
     * a checkpoint after a devnet that did not stop cleanly (its Anvils died too), or the chains
     * were reverted to a snapshot. The services then check their records against the chains
     * (reconcileWithChains) before they start; otherwise that check is skipped.
     */
    chainsMayLag(): boolean
    /** Process ids of the Anvils. */
    pids(): number[]
    /** Writes a checkpoint of every live chain now (with `stateDir`; otherwise does nothing). */
    checkpoint(): Promise<void>
    /** Dumps state (with `stateDir`), then stops every Anvil. Idempotent. */
    stop(): Promise<void>
  }

/**
 * Boots the devnet: one Anvil per chain (in parallel), our contracts at their canonical addresses,
 * funded accounts, one clock. The devnet is a {@link DevnetState} the actions under `actions/`
 * work on (boot, checkpoint, clock, manifest, snapshot, revert, stop), in the manner of viem's
 * test actions; this composes them into one object.
 *
 * @example
 * const devnet = await startDevnet({ chainIds: [1, 8453] })
 * devnet.chain(8453).publicClient // viem reads
 * await devnet.advanceClock(3600)
 * await devnet.stop()
 */
export async function startDevnet(parameters: StartDevnetParameters = {}): Promise<Devnet> {
  const state = await bootDevnet(parameters)
  startCheckpoints(
    state,
    parameters.checkpointIntervalMs === undefined ? 2_000 : parameters.checkpointIntervalMs,
  )
  return {
    keys: state.keys,
    chains: state.chains,
    boot: state.boot,
    chainsMayLag: () => state.lagging,
    chain(chainId) {
      const chain = state.byId.get(chainId)
      if (!chain)
        throw new DevnetError(
          `The devnet does not run chain ${chainId} (it runs ${state.chainIds.join(', ')}).`,
        )
      return chain
    },
    now: () => nowSeconds(state),
    nowMs: () => Date.now() + state.offset * 1000,
    offsetSeconds: () => state.offset,
    setServiceInfo(info) {
      state.serviceInfo = info
    },
    pids: () => state.anvils.map((anvil) => anvil.pid),
    manifest: () => manifest(state),
    advanceClock: (seconds) => advanceClock(state, seconds),
    snapshot: () => snapshot(state),
    revert: (id) => revert(state, id),
    async health() {
      return { chains: state.chains.map((chain) => ({ chainId: chain.chainId, up: chain.anvil.alive })) }
    },
    checkpoint: () => checkpoint(state, { force: true }),
    stop: () => stop(state),
  }
}
