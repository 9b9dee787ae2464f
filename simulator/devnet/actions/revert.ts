import type { DevnetState } from '../devnetState'
import { saveMeta } from './checkpoint'
import { alignClocks } from './clock'

/**
 * Reverts every chain, the clock and each chain's next base fee to a snapshot; false when the
 * devnet has no such snapshot (or Anvil no longer knows it). The same id can be reverted to again;
 * later snapshots are forgotten. Afterwards the chains may hold less than the services' records.
 *
 * @example
 * if (!(await revert(state, id))) throw new Error(`no snapshot ${id}`)
 */
export async function revert(state: DevnetState, id: string): Promise<boolean> {
  const saved = state.snapshots.get(id)
  if (!saved) return false
  // `evm_revert` answers false for an id Anvil no longer knows (viem's typed `revert` drops
  // the answer, so the untyped request, whose answer is checked here).
  const reverted = await Promise.all(
    state.chains.map(
      async (chain, i) =>
        (await chain.testClient.request<{
          Method: 'evm_revert'
          Parameters: [string]
          ReturnType: boolean
        }>({ method: 'evm_revert', params: [saved.ids[i]!] })) === true,
    ),
  )
  if (reverted.some((ok) => !ok)) {
    state.snapshots.delete(id)
    return false
  }
  // Anvil drops a snapshot once reverted to (and every later one): take it again, so the same
  // id can be reverted to more than once, and forget the later ones.
  for (const other of [...state.snapshots.keys()])
    if (Number(other) > Number(id)) state.snapshots.delete(other)
  state.snapshots.set(id, {
    ids: await Promise.all(state.chains.map((chain) => chain.testClient.snapshot())),
    offset: saved.offset,
    gas: saved.gas,
  })
  // The block that aligns the clocks carries the snapshot's base fee, the next one its next.
  state.offset = await alignClocks(state.chains, saved.offset, (chainId) => saved.gas[String(chainId)])
  await saveMeta(state)
  state.lagging = true
  return true
}
