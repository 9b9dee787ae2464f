import { type DevnetState, liveChains } from '../devnetState'
import { removeExitDumps, removeProcesses } from '../stateDir'
import { checkpoint } from './checkpoint'

/**
 * Stops the devnet: a last checkpoint (with a state dir), then every Anvil. Idempotent. After a
 * clean save the checkpoint is the state; Anvil's exit dumps (the same or older) are removed.
 *
 * @example
 * await stop(state)
 */
export function stop(state: DevnetState): Promise<void> {
  state.stopping ??= (async () => {
    if (state.checkpointTimer) clearInterval(state.checkpointTimer)
    const { stateDir } = state
    let saved = false
    try {
      if (stateDir) {
        await checkpoint(state, { force: true })
        saved = true
        state.log(
          `state of ${liveChains(state)
            .map((c) => c.chainId)
            .join(', ')} saved to ${stateDir}`,
        )
      }
    } finally {
      await Promise.all(state.anvils.map((anvil) => anvil.stop()))
      if (stateDir && saved) {
        await removeExitDumps(stateDir, state.chainIds)
        await removeProcesses(stateDir)
      }
    }
  })()
  return state.stopping
}
