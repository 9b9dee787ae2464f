import { fileURLToPath } from 'node:url'
import type { Address } from 'viem'
import { DEFAULT_CHAIN_IDS } from '../../../spec/startOptions'
import { type AnvilInstance, startAnvil } from '../anvil'
import { freshBootState } from '../bootStateFiles.js'
import { createDevnetChain, type DevnetChain } from '../chain'
import type { ChainBootReport, DevnetState } from '../devnetState'
import { DevnetError } from '../errors'
import { FUNDING } from '../funding'
import { DEFAULT_TEST_ACCOUNT_COUNT, DEV_MNEMONIC, deriveDevKeys } from '../keys'
import { placementTable } from '../placement'
import type { StartDevnetParameters } from '../startDevnetParameters'
import { chainExitDumpPath, readChainState, readStateMeta, writeProcesses, writeStateMeta } from '../stateDir'
import { bootChain, holdsBootState } from './bootChain'
import { alignClocks } from './clock'
import { releasePreviousDevnet } from './releasePreviousDevnet'

/** The project's root (where dist/ is), from this module's place in the source tree. */
const ROOT = fileURLToPath(new URL('../../../', import.meta.url))

/** The chains the devnet runs unless told otherwise (stated with the start options). */
export { DEFAULT_CHAIN_IDS }

/**
 * Boots the chains: one Anvil per chain (in parallel; if any fails, the others are stopped before
 * it is reported), each from the baked boot state, the state dir, or placed and funded anew; then
 * one clock for all, and each loaded chain's next base fee as its checkpoint saved it. Returns the
 * devnet's state for the other actions.
 *
 * @example
 * const state = await bootDevnet({ chainIds: [10, 8453] })
 */
export async function bootDevnet(parameters: StartDevnetParameters = {}): Promise<DevnetState> {
  const chainIds = [...(parameters.chainIds ?? DEFAULT_CHAIN_IDS)]
  if (new Set(chainIds).size !== chainIds.length)
    throw new DevnetError(`Duplicate chain id in ${chainIds.join(', ')}.`)
  const log = parameters.log ?? (() => {})
  const keys = deriveDevKeys({ mnemonic: parameters.mnemonic, accountCount: parameters.accountCount })
  const stateDir = parameters.stateDir
  const forks = parameters.forks ?? {}
  for (const id of Object.keys(forks))
    if (!chainIds.includes(Number(id)))
      throw new DevnetError(
        `--fork names chain ${id}, which is not among the chains (${chainIds.join(', ')}).`,
      )

  const uncleanBefore = stateDir ? await releasePreviousDevnet(stateDir, log) : false
  const [meta, ...states] = await Promise.all([
    stateDir ? readStateMeta(stateDir) : undefined,
    ...chainIds.map((chainId) => (stateDir ? readChainState(stateDir, chainId) : undefined)),
  ])

  // The baked boot state, for the chains it applies to (see `bootState`).
  const defaultKeys =
    (parameters.mnemonic === undefined ||
      parameters.mnemonic.trim().split(/\s+/).join(' ') === DEV_MNEMONIC) &&
    (parameters.accountCount ?? DEFAULT_TEST_ACCOUNT_COUNT) === DEFAULT_TEST_ACCOUNT_COUNT &&
    (parameters.balance ?? FUNDING.account.ETH) === FUNDING.account.ETH &&
    parameters.blockTime === undefined
  const bootRoot = typeof parameters.bootState === 'object' ? parameters.bootState.root : ROOT
  const baked = parameters.bootState && !stateDir && defaultKeys ? freshBootState(bootRoot) : undefined
  const bakedFor = (chainId: number) => (forks[chainId] ? undefined : baked?.chains[chainId])

  const launchAnvil = parameters.launchAnvil ?? startAnvil
  const launchParameters = (chainId: number, i: number) => ({
    chainId,
    host: parameters.host,
    port: parameters.ports?.[chainId] ?? (parameters.basePort ? parameters.basePort + i : 0),
    forkUrl: forks[chainId],
    blockTime: parameters.blockTime,
    dumpStatePath: stateDir ? chainExitDumpPath(stateDir, chainId) : undefined,
  })
  const started = await Promise.allSettled(
    chainIds.map((chainId, i) =>
      launchAnvil({ ...launchParameters(chainId, i), loadStatePath: bakedFor(chainId)?.path }),
    ),
  )
  const anvils = started.flatMap((result) => (result.status === 'fulfilled' ? [result.value] : []))
  const failure = started.find((result) => result.status === 'rejected')
  if (failure) {
    await Promise.all(anvils.map((anvil) => anvil.stop()))
    throw failure.reason
  }
  const chainOf = (anvil: AnvilInstance) =>
    createDevnetChain({
      anvil,
      relayer: keys.relayer.account,
      forkUrl: forks[anvil.chainId],
      transport: parameters.transport?.(anvil.rpcUrl),
    })
  const chains = anvils.map(chainOf)

  let boot: ChainBootReport[]
  let offset = meta?.offsetSeconds ?? 0
  try {
    boot = await Promise.all(
      chains.map(async (chain, i) => {
        const image = bakedFor(chain.chainId)
        if (image) {
          const [holds] = await Promise.all([holdsBootState(chain, image), quietAnvil(chain)])
          if (holds) {
            log(`chain ${chain.chainId}: boot state loaded (placed and funded at build time)`)
            return {
              chainId: chain.chainId,
              loadedState: false,
              placed: placementTable(chain.chainId).map((row) => row.name),
              funded: true,
              bootState: true,
            }
          }
          // Not the state it should be (a dump replaced meanwhile): a plain chain, placed.
          log(`chain ${chain.chainId}: the boot state did not load as baked; placing instead`)
          await chain.anvil.stop()
          anvils[i] = await startAnvil(launchParameters(chain.chainId, i))
          chains[i] = chainOf(anvils[i]!)
        }
        const [report] = await Promise.all([
          bootChain({
            chain: chains[i]!,
            keys,
            saved: states[i],
            forked: chain.forkUrl !== undefined,
            balance: parameters.balance,
            log,
          }),
          quietAnvil(chains[i]!),
        ])
        return report
      }),
    )
    // The head of each chain loaded from a checkpoint whose gas was saved with it.
    const restorable = await Promise.all(
      chains.map(async (chain, i) => {
        const gas = meta?.gas?.[String(chain.chainId)]
        if (!gas || states[i]?.source !== 'checkpoint') return undefined
        const head = await chain.publicClient.getBlockNumber({ cacheTime: 0 })
        return String(head) === gas.blockNumber ? gas : undefined
      }),
    )
    // The block that aligns the clocks carries the checkpoint's base fee, the next one its next.
    // An instant asked for becomes an offset to the wall clock right before the alignment. Chains
    // that all loaded a saved state are then aligned without a block (a replay: the recorded
    // block numbers stay as they were).
    const at = parameters.clockAt
    if (at !== undefined) offset = at - Math.floor(Date.now() / 1000)
    offset = await alignClocks(chains, offset, (chainId) => restorable[chainIds.indexOf(chainId)], {
      mine: at === undefined || states.some((saved) => saved === undefined),
    })
    // Boot's batches turn automine back on, which ends Anvil's interval mining: `--block-time`
    // is set again once the chains are placed and funded.
    const blockTime = parameters.blockTime
    if (blockTime !== undefined)
      await Promise.all(chains.map((chain) => chain.testClient.setIntervalMining({ interval: blockTime })))
    if (stateDir) {
      writeProcesses(stateDir, { servicePid: process.pid, anvilPids: anvils.map((anvil) => anvil.pid) })
      await writeStateMeta(stateDir, { offsetSeconds: offset, chainIds, gas: meta?.gas })
    }
  } catch (error) {
    await Promise.all(anvils.map((anvil) => anvil.stop()))
    throw error
  }

  return {
    chainIds,
    keys,
    stateDir,
    log,
    anvils,
    chains,
    byId: new Map(chains.map((chain) => [chain.chainId, chain])),
    contractsOf: new Map(
      chains.map((chain) => [
        chain.chainId,
        Object.fromEntries(
          placementTable(chain.chainId)
            .filter((row) => row.kind === 'contract')
            .map((row) => [row.name, row.address]),
        ) as Record<string, Address>,
      ]),
    ),
    boot,
    offset,
    lagging: uncleanBefore && boot.some((chain) => chain.stateSource === 'checkpoint'),
    snapshots: new Map(),
    nextSnapshot: 1,
    checkpoints: Promise.resolve(),
    checkpointedHeights: '',
    savedGas: { ...meta?.gas },
  }
}

/**
 * Turns off the Anvil's log of every request and transaction (`anvil_setLoggingEnabled`): no one
 * reads it once the Anvil listens (its output is read until then, for the port and for start
 * errors), yet each line was a write to the pipe that our process then read, ~2900 per
 * conformance run (~10 µs of our CPU each: BENCHMARKS.md, "the simulator child's CPU per
 * request"). Sent beside the chain's first boot requests, so in their round trip.
 */
function quietAnvil(chain: DevnetChain): Promise<unknown> {
  // An Anvil without the method logs as before: nothing else depends on it.
  return chain.testClient
    .request({ method: 'anvil_setLoggingEnabled', params: [false] })
    .catch(() => undefined)
}
