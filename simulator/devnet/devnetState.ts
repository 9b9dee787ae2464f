import type { Address, Hex } from 'viem'
import type { DevnetManifest } from '../../spec'
import type { AnvilInstance } from './anvil'
import type { DevnetChain } from './chain'
import type { DevKeys } from './keys'
import type { ChainGas } from './stateDir'

/** What the manifest's `service` part holds: known once the HTTP server listens. */
export type DevnetServiceInfo = DevnetManifest['service']

/** How one chain came up. */
export type ChainBootReport = {
  chainId: number
  /** State loaded from the state dir. */
  loadedState: boolean
  /** Where the loaded state came from: the last checkpoint, or Anvil's dump when it died. */
  stateSource?: 'checkpoint' | 'exit-dump' | undefined
  /** Names of the contracts placed at boot (missing code); the others were already there. */
  placed: string[]
  /** Funding ran (skipped when state was loaded), or the boot state holds it. */
  funded: boolean
  /** Started from the baked boot state (placed and funded at build time, same state). */
  bootState?: boolean | undefined
}

/**
 * Everything a running devnet knows, in one place: the actions (`actions/*.ts`) read and change
 * it, `startDevnet` composes them into the {@link Devnet} object. Only the actions write to it.
 *
 * @example
 * const state = await bootDevnet(parameters)
 * await advanceClock(state, 60)
 */
export type DevnetState = {
  chainIds: readonly number[]
  keys: DevKeys
  /** Where checkpoints go (a `--state-dir`), when there is one. */
  stateDir?: string | undefined
  log: (line: string) => void
  /** One Anvil per chain, in `chainIds` order (a chain restarted at boot replaces its entry). */
  anvils: AnvilInstance[]
  chains: DevnetChain[]
  byId: Map<number, DevnetChain>
  /** Contract names and addresses per chain, for the manifest. */
  contractsOf: Map<number, Record<string, Address>>
  boot: readonly ChainBootReport[]
  /** Seconds the clock runs ahead of the wall clock. */
  offset: number
  /** The chains may hold less than the services' durable data (see `Devnet.chainsMayLag`). */
  lagging: boolean
  serviceInfo?: DevnetServiceInfo | undefined
  /** Snapshots by the id the control API hands out: Anvil's ids per chain, the clock, the gas. */
  snapshots: Map<string, { ids: Hex[]; offset: number; gas: Record<string, ChainGas> }>
  nextSnapshot: number
  /** Checkpoints run one after another: the last one queued. */
  checkpoints: Promise<void>
  /** The chains' heights at the last checkpoint (a chain that has not moved is not dumped again). */
  checkpointedHeights: string
  /** Each chain's gas at the last checkpoint, written with every `devnet.json`. */
  savedGas: Record<string, ChainGas>
  checkpointTimer?: ReturnType<typeof setInterval> | undefined
  stopping?: Promise<void> | undefined
}

/**
 * The chains whose Anvil still runs.
 *
 * @example
 * const up = liveChains(state).map((chain) => chain.chainId)
 */
export function liveChains(state: DevnetState): DevnetChain[] {
  return state.chains.filter((chain) => chain.anvil.alive)
}
