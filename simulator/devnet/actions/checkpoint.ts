import { type DevnetState, liveChains } from '../devnetState'
import { writeDevnetState, writeStateMeta } from '../stateDir'
import { readGas } from './gas'

/**
 * Writes a checkpoint of every live chain (with a state dir; otherwise does nothing): each
 * chain's `anvil_dumpState` and its gas, and `devnet.json`. Checkpoints run one at a time; unless
 * `force`, chains whose heights have not moved since the last one are not dumped again.
 *
 * @example
 * await checkpoint(state, { force: true })
 */
export function checkpoint(state: DevnetState, options: { force: boolean }): Promise<void> {
  const { stateDir } = state
  if (!stateDir) return Promise.resolve()
  state.checkpoints = state.checkpoints
    .catch(() => undefined)
    .then(async () => {
      const live = liveChains(state)
      const heights = (
        await Promise.all(live.map((chain) => chain.publicClient.getBlockNumber({ cacheTime: 0 })))
      ).join(',')
      if (!options.force && heights === state.checkpointedHeights) return
      const [dumped, gas] = await Promise.all([
        Promise.all(
          live.map(async (chain) => ({ chainId: chain.chainId, state: await chain.testClient.dumpState() })),
        ),
        readGas(live),
      ])
      state.savedGas = { ...state.savedGas, ...gas }
      await writeDevnetState(stateDir, dumped, metaOf(state))
      state.checkpointedHeights = heights
    })
  return state.checkpoints
}

/**
 * Saves `devnet.json` now (the clock offset as soon as it changes; the gas of the last checkpoint).
 *
 * @example
 * await saveMeta(state)
 */
export async function saveMeta(state: DevnetState): Promise<void> {
  if (state.stateDir) await writeStateMeta(state.stateDir, metaOf(state))
}

/**
 * Checkpoints every `intervalMs` while blocks are mined (null: only when asked and at stop).
 *
 * @example
 * startCheckpoints(state, 2_000)
 */
export function startCheckpoints(state: DevnetState, intervalMs: number | null): void {
  if (!state.stateDir || intervalMs === null) return
  state.checkpointTimer = setInterval(
    () =>
      checkpoint(state, { force: false }).catch((error) =>
        state.log(`checkpoint failed: ${(error as Error).message}`),
      ),
    intervalMs,
  )
  state.checkpointTimer.unref()
}

function metaOf(state: DevnetState) {
  return { offsetSeconds: state.offset, chainIds: [...state.chainIds], gas: state.savedGas }
}
