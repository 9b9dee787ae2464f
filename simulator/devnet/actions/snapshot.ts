import type { DevnetState } from '../devnetState'
import { readGas } from './gas'

/**
 * Snapshots every chain, the clock and each chain's gas under one id (the control API's
 * `POST /_devnet/snapshot`).
 *
 * @example
 * const { id } = await snapshot(state)
 */
export async function snapshot(state: DevnetState): Promise<{ id: string }> {
  const [ids, gas] = await Promise.all([
    Promise.all(state.chains.map((chain) => chain.testClient.snapshot())),
    readGas(state.chains),
  ])
  const id = String(state.nextSnapshot++)
  state.snapshots.set(id, { ids, offset: state.offset, gas })
  return { id }
}
