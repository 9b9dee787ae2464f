import { fileURLToPath } from 'node:url'
import { type Address, type Hex, parseEther } from 'viem'
import { tokensByChain } from '../../contracts/addresses'
import type { DevnetManifest } from '../../spec'
import { BaseError } from '../../spec/BaseError'
import type { Clock } from '../util/clock'
import { type AnvilInstance, type AnvilLauncher, startAnvil } from './anvil'
import { freshBootState } from './bootStateFiles.js'
import { createDevnetChain, type DevnetChain } from './chain'
import type { DevnetService } from './devnetService'
import { FUNDING, planFunding } from './funding'
import { DEFAULT_TEST_ACCOUNT_COUNT, DEV_MNEMONIC, type DevKeys, deriveDevKeys } from './keys'
import { getArtifact, isPlacedCode, type Placement, placementTable } from './placement'
import { sendCalls } from './sendCalls'
import {
  chainExitDumpPath,
  processName,
  readChainState,
  readProcesses,
  readStateMeta,
  removeExitDumps,
  removeProcesses,
  type SavedChainState,
  writeDevnetState,
  writeProcesses,
  writeStateMeta,
} from './stateDir'

/** The project's root (where dist/ is), from this module's place in the source tree. */
const ROOT = fileURLToPath(new URL('../../', import.meta.url))

/** The chains the devnet runs unless told otherwise. */
export const DEFAULT_CHAIN_IDS = [1, 10, 8453, 42161] as const

/** Parameters of {@link startDevnet}. */
export type StartDevnetParameters = {
  /** Chain ids, one Anvil each. Default {@link DEFAULT_CHAIN_IDS}. */
  chainIds?: readonly number[] | undefined
  /** Loopback host the Anvils listen on. Default 127.0.0.1. */
  host?: string | undefined
  /** 0 (default): free ports. Otherwise chain `i` (in `chainIds` order) listens on `basePort + i`. */
  basePort?: number | undefined
  /** Fixed ports per chain id; wins over `basePort`. */
  ports?: Record<number, number> | undefined
  /**
   * Load chain state from this directory at start and keep it there: a checkpoint every
   * `checkpointIntervalMs` while blocks are mined and at {@link Devnet.stop}, and Anvil's own dump
   * when it dies with the service (see stateDir.ts and docs/devnet.md, "Durable state").
   */
  stateDir?: string | undefined
  /** Milliseconds between checkpoints of the chains with a state dir (null: only at stop). Default 2000. */
  checkpointIntervalMs?: number | null | undefined
  /** Chains that fork a live RPC URL instead of starting empty. */
  forks?: Record<number, string> | undefined
  /** Mnemonic of every devnet key (see simulator/signing/keys.ts). */
  mnemonic?: string | undefined
  /** How many funded test accounts. Default 10. */
  accountCount?: number | undefined
  /** Progress lines (what was loaded, placed, funded). */
  log?: ((line: string) => void) | undefined
  /**
   * How each chain's Anvil is started. Default {@link startAnvil}; `intent-devnet up` passes one
   * that adopts the Anvils its bin started before the CLI loaded (anvil.ts earlyAnvilLauncher).
   */
  launchAnvil?: AnvilLauncher | undefined
  /**
   * Start each chain from the boot state baked at build time (bootStateFiles.js: our contracts
   * placed, accounts funded, deposits made; an Anvil `--load-state`) instead of placing and
   * funding, when it is fresh and applies: no state dir, the chain not forked, the default keys.
   * Checked once the Anvil listens (its head is the baked block, the allocator's code is ours); a
   * chain that does not match is started anew and placed. Default false (`intent-devnet up` sets
   * it); `{ root }`: the bake of another project root (tests).
   */
  bootState?: boolean | { root: string } | undefined
}

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

export class DevnetError extends BaseError {
  override name = 'Devnet.Error'
}

/**
 * Boots the devnet: one Anvil per chain (in parallel), our contracts at their canonical addresses,
 * funded accounts, one clock.
 *
 * @example
 * const devnet = await startDevnet({ chainIds: [1, 8453] })
 * devnet.chain(8453).publicClient // viem reads
 * await devnet.advanceClock(3600)
 * await devnet.stop()
 */
export async function startDevnet(parameters: StartDevnetParameters = {}): Promise<Devnet> {
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
  let offset = meta?.offsetSeconds ?? 0

  // The baked boot state, for the chains it applies to (see `bootState`).
  const defaultKeys =
    (parameters.mnemonic === undefined ||
      parameters.mnemonic.trim().split(/\s+/).join(' ') === DEV_MNEMONIC) &&
    (parameters.accountCount ?? DEFAULT_TEST_ACCOUNT_COUNT) === DEFAULT_TEST_ACCOUNT_COUNT
  const bootRoot = typeof parameters.bootState === 'object' ? parameters.bootState.root : ROOT
  const baked = parameters.bootState && !stateDir && defaultKeys ? freshBootState(bootRoot) : undefined
  const bakedFor = (chainId: number) => (forks[chainId] ? undefined : baked?.chains[chainId])

  // Boot every Anvil at once; if any fails, stop the others before reporting it.
  const launchAnvil = parameters.launchAnvil ?? startAnvil
  const launchParameters = (chainId: number, i: number) => ({
    chainId,
    host: parameters.host,
    port: parameters.ports?.[chainId] ?? (parameters.basePort ? parameters.basePort + i : 0),
    forkUrl: forks[chainId],
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
    createDevnetChain({ anvil, relayer: keys.relayer.account, forkUrl: forks[anvil.chainId] })
  const chains = anvils.map(chainOf)

  let boot: ChainBootReport[]
  try {
    boot = await Promise.all(
      chains.map(async (chain, i) => {
        const image = bakedFor(chain.chainId)
        if (image) {
          if (await holdsBootState(chain, image)) {
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
        return bootChain({
          chain: chains[i]!,
          keys,
          saved: states[i],
          forked: chain.forkUrl !== undefined,
          log,
        })
      }),
    )
    offset = await alignClocks(chains, offset)
    if (stateDir) {
      writeProcesses(stateDir, { servicePid: process.pid, anvilPids: anvils.map((anvil) => anvil.pid) })
      await writeStateMeta(stateDir, { offsetSeconds: offset, chainIds })
    }
  } catch (error) {
    await Promise.all(anvils.map((anvil) => anvil.stop()))
    throw error
  }

  // Checkpoints run one at a time; a chain whose height has not moved is not dumped again.
  let checkpoints: Promise<void> = Promise.resolve()
  let checkpointedHeights = ''
  const checkpoint = (force: boolean) => {
    if (!stateDir) return Promise.resolve()
    checkpoints = checkpoints
      .catch(() => undefined)
      .then(async () => {
        const live = liveChains()
        const heights = (
          await Promise.all(live.map((chain) => chain.publicClient.getBlockNumber({ cacheTime: 0 })))
        ).join(',')
        if (!force && heights === checkpointedHeights) return
        const dumped = await Promise.all(
          live.map(async (chain) => ({ chainId: chain.chainId, state: await chain.testClient.dumpState() })),
        )
        await writeDevnetState(stateDir, dumped, { offsetSeconds: offset, chainIds })
        checkpointedHeights = heights
      })
    return checkpoints
  }
  const interval = parameters.checkpointIntervalMs === undefined ? 2_000 : parameters.checkpointIntervalMs
  const checkpointTimer =
    stateDir && interval !== null
      ? setInterval(
          () => checkpoint(false).catch((error) => log(`checkpoint failed: ${(error as Error).message}`)),
          interval,
        )
      : undefined
  checkpointTimer?.unref()
  // The clock offset is saved as soon as it changes: a crash must not turn the clock back.
  const saveOffset = () =>
    stateDir ? writeStateMeta(stateDir, { offsetSeconds: offset, chainIds }) : undefined

  let lagging = uncleanBefore && boot.some((chain) => chain.stateSource === 'checkpoint')
  let serviceInfo: DevnetServiceInfo | undefined
  const snapshots = new Map<string, { ids: Hex[]; offset: number }>()
  let nextSnapshot = 1
  let stopping: Promise<void> | undefined
  const wallSeconds = () => Math.floor(Date.now() / 1000)
  const byId = new Map(chains.map((chain) => [chain.chainId, chain]))
  const contractsOf = new Map(
    chains.map((chain) => [
      chain.chainId,
      Object.fromEntries(
        placementTable(chain.chainId)
          .filter((row) => row.kind === 'contract')
          .map((row) => [row.name, row.address]),
      ) as Record<string, Address>,
    ]),
  )

  const devnet: Devnet = {
    keys,
    chains,
    boot,
    chainsMayLag: () => lagging,
    chain(chainId) {
      const chain = byId.get(chainId)
      if (!chain)
        throw new DevnetError(`The devnet does not run chain ${chainId} (it runs ${chainIds.join(', ')}).`)
      return chain
    },
    now: () => wallSeconds() + offset,
    nowMs: () => Date.now() + offset * 1000,
    offsetSeconds: () => offset,
    setServiceInfo(info) {
      serviceInfo = info
    },
    pids: () => anvils.map((anvil) => anvil.pid),

    manifest() {
      if (!serviceInfo)
        throw new DevnetError('The devnet manifest has no service part yet.', {
          details: 'Call setServiceInfo() once the HTTP server listens.',
        })
      return {
        service: serviceInfo,
        signers: {
          server: keys.server.address,
          allocator: keys.allocator.address,
          relayer: keys.relayer.address,
        },
        chains: chains.map((chain) => ({
          chainId: chain.chainId,
          name: chain.name,
          rpcUrl: chain.rpcUrl,
          ...(chain.forkUrl ? { forkUrl: chain.forkUrl } : {}),
          contracts: contractsOf.get(chain.chainId) ?? {},
          tokens: (tokensByChain[chain.chainId] ?? []).map(({ symbol, name, address, decimals }) => ({
            symbol,
            name,
            address,
            decimals,
          })),
        })),
        accounts: keys.accounts.map(({ label, address, privateKey }) => ({ label, address, privateKey })),
        clock: { now: devnet.now(), offsetSeconds: offset },
      }
    },

    async advanceClock(seconds) {
      if (!Number.isInteger(seconds) || seconds < 0)
        throw new DevnetError(`The clock moves forward by whole seconds; got ${seconds}.`)
      offset += seconds
      offset = await alignClocks(liveChains(), offset)
      await saveOffset()
      return { now: devnet.now() }
    },

    async snapshot() {
      const ids = await Promise.all(chains.map((chain) => chain.testClient.snapshot()))
      const id = String(nextSnapshot++)
      snapshots.set(id, { ids, offset })
      return { id }
    },

    async revert(id) {
      const saved = snapshots.get(id)
      if (!saved) return false
      // `evm_revert` answers false for an id Anvil no longer knows (viem's typed `revert` drops
      // the answer, so the untyped request, whose answer is checked here).
      const reverted = await Promise.all(
        chains.map(
          async (chain, i) =>
            (await chain.testClient.request<{
              Method: 'evm_revert'
              Parameters: [string]
              ReturnType: boolean
            }>({ method: 'evm_revert', params: [saved.ids[i]!] })) === true,
        ),
      )
      if (reverted.some((ok) => !ok)) {
        snapshots.delete(id)
        return false
      }
      // Anvil drops a snapshot once reverted to (and every later one): take it again, so the same
      // id can be reverted to more than once, and forget the later ones.
      for (const other of [...snapshots.keys()]) if (Number(other) > Number(id)) snapshots.delete(other)
      snapshots.set(id, {
        ids: await Promise.all(chains.map((chain) => chain.testClient.snapshot())),
        offset: saved.offset,
      })
      offset = await alignClocks(chains, saved.offset)
      await saveOffset()
      lagging = true
      return true
    },

    async health() {
      return { chains: chains.map((chain) => ({ chainId: chain.chainId, up: chain.anvil.alive })) }
    },

    checkpoint: () => checkpoint(true),

    stop() {
      stopping ??= (async () => {
        if (checkpointTimer) clearInterval(checkpointTimer)
        let saved = false
        try {
          if (stateDir) {
            await checkpoint(true)
            saved = true
            log(
              `state of ${liveChains()
                .map((c) => c.chainId)
                .join(', ')} saved to ${stateDir}`,
            )
          }
        } finally {
          await Promise.all(anvils.map((anvil) => anvil.stop()))
          // After a clean save the checkpoint is the state; Anvil's exit dumps are the same or older.
          if (stateDir && saved) {
            await removeExitDumps(stateDir, chainIds)
            await removeProcesses(stateDir)
          }
        }
      })()
      return stopping
    },
  }
  function liveChains() {
    return chains.filter((chain) => chain.anvil.alive)
  }
  return devnet
}

/**
 * True when a chain started from the baked boot state holds it: its head is the bake's last
 * block of this chain (number and hash) and the allocator's code is ours (one batched round trip).
 */
async function holdsBootState(
  chain: DevnetChain,
  baked: { blockNumber: number; blockHash: string },
): Promise<boolean> {
  const allocator = placementTable(chain.chainId).find((row) => row.name === 'allocator')!
  const [head, code] = await Promise.all([
    chain.publicClient.getBlock({ blockTag: 'latest' }),
    chain.publicClient.getCode({ address: allocator.address }),
  ])
  return (
    Number(head.number) === baked.blockNumber &&
    head.hash === baked.blockHash &&
    isPlacedCode(code, getArtifact(allocator.artifact)!)
  )
}

/**
 * Places the contracts and funds the accounts on one chain (exported for the boot state's bake,
 * bootState.ts). With loaded state or on a fork,
 * only contracts whose address has no code are placed (a loaded contract whose code changed
 * since is replaced in place, keeping its storage); funding is skipped when state was loaded.
 */
export async function bootChain(parameters: {
  chain: DevnetChain
  keys: DevKeys
  saved: SavedChainState | undefined
  forked: boolean
  log: (line: string) => void
}): Promise<ChainBootReport> {
  const { chain, keys, saved, forked, log } = parameters
  const state = saved?.state
  const { testClient, publicClient, chainId } = chain
  if (state) await testClient.loadState({ state })

  const table = placementTable(chainId)
  const rows = table.map((row) => {
    const artifact = getArtifact(row.artifact)
    if (!artifact)
      throw new DevnetError(`Contract ${row.artifact} is not in contracts/generated/artifacts.ts.`)
    return { row, artifact }
  })
  const fresh = !state && !forked
  const codes = fresh
    ? undefined
    : await Promise.all(rows.map(({ row }) => publicClient.getCode({ address: row.address })))

  const toPlace: Placement[] = []
  const replace: Placement[] = []
  rows.forEach(({ row, artifact }, i) => {
    const code = codes?.[i]
    if (!code || code === '0x') toPlace.push(row)
    else if (!forked && !isPlacedCode(code, artifact)) replace.push(row)
  })
  await Promise.all([
    ...[...toPlace, ...replace].map((row) =>
      testClient.setCode({ address: row.address, bytecode: getArtifact(row.artifact)!.deployedBytecode }),
    ),
    // The funder pays for boot's transactions.
    testClient.setBalance({ address: keys.funder.address, value: parseEther(String(FUNDING.funder.ETH)) }),
  ])
  const tokens = tokensByChain[chainId] ?? []
  const context = { chainId, keys, tokens }
  const calls = toPlace.flatMap((row) => row.init?.(context) ?? [])
  // On a fork whose allocator was already live, our allocator's registration still has to hold.
  if (forked && !toPlace.some((row) => row.name === 'allocator'))
    calls.push(
      ...(table
        .find((row) => row.name === 'allocator')
        ?.init?.(context)
        .slice(1) ?? []),
    )
  // Placement's and funding's transactions go out together: one batch, one or two blocks.
  const funding = state ? undefined : await planFunding({ chain, keys, tokens, compactDeposits: true, fresh })
  await sendCalls(chain, keys.funder.address, [...calls, ...(funding?.calls ?? [])])
  // The relayer paid the gas of its approvals (funding.ts): it starts with its ether whole.
  if (funding)
    await testClient.setBalance({
      address: keys.relayer.address,
      value: parseEther(String(FUNDING.relayer.ETH)),
    })
  if (forked) await overrideAllocatorSigner(chain, keys.allocator.address)

  if (!funding)
    log(
      `chain ${chainId}: state loaded (${saved?.source}), ${toPlace.length + replace.length} contracts (re)placed`,
    )
  else
    log(
      `chain ${chainId}: ${toPlace.length} contracts placed, funded (${funding.methods.map((m) => `${m.token.symbol} by ${m.method}`).join(', ')})`,
    )
  return {
    chainId,
    loadedState: state !== undefined,
    stateSource: saved?.source,
    placed: toPlace.map((row) => row.name),
    funded: !state,
  }
}

/**
 * On a fork, the live allocator signs with a key the simulator does not have: its `signer`
 * (storage slot 0 of our Allocator; checked by reading it back) is overwritten with the devnet's
 * allocator key.
 */
async function overrideAllocatorSigner(chain: DevnetChain, signer: Address): Promise<void> {
  const { Allocator } = await import('../../contracts/generated/artifacts')
  const { addresses } = await import('../../contracts/addresses')
  const read = () =>
    chain.publicClient.readContract({
      address: addresses.allocator,
      abi: Allocator.abi,
      functionName: 'signer',
    })
  if ((await read()).toLowerCase() === signer.toLowerCase()) return
  await chain.testClient.setStorageAt({
    address: addresses.allocator,
    index: `0x${'0'.repeat(64)}`,
    value: `0x${signer.slice(2).toLowerCase().padStart(64, '0')}`,
  })
  if ((await read()).toLowerCase() !== signer.toLowerCase())
    throw new DevnetError(`Could not override the allocator's signer on chain ${chain.chainId}.`)
}

/**
 * Makes every chain's time agree with the clock: the next block of each chain is stamped
 * `wall + offset` and mined (Anvil then keeps that offset to wall time for later blocks). A chain
 * already ahead of the clock (state loaded from a later run, a fork of a chain whose clock runs
 * fast) pulls the clock forward instead: chain time never goes back. Returns the new offset.
 */
async function alignClocks(chains: readonly DevnetChain[], offset: number): Promise<number> {
  const latest = await Promise.all(chains.map((chain) => chain.publicClient.getBlock({ blockTag: 'latest' })))
  const wall = Math.floor(Date.now() / 1000)
  const ahead = Math.max(0, ...latest.map((block) => Number(block.timestamp) - wall))
  const next = Math.max(offset, ahead)
  const target = BigInt(wall + next)
  await Promise.all(
    chains.map(async (chain) => {
      await chain.testClient.setNextBlockTimestamp({ timestamp: target })
      await chain.testClient.mine({ blocks: 1 })
    }),
  )
  return next
}

export type { AnvilInstance, DevnetChain }

/**
 * Before a devnet loads a state dir: when the devnet that last used it did not stop cleanly, its
 * Anvils may still be writing their exit dumps (they got the parent-death signal): wait for them
 * (then kill what is left). A devnet whose service and Anvils still run owns the dir: refuse.
 */
async function releasePreviousDevnet(stateDir: string, log: (line: string) => void): Promise<boolean> {
  const previous = readProcesses(stateDir)
  if (!previous) return false
  const anvilsAlive = () => previous.anvilPids.filter((pid) => processName(pid) === 'anvil')
  if (processName(previous.servicePid) !== undefined && anvilsAlive().length > 0)
    throw new DevnetError(
      `The state dir ${stateDir} is in use by a running devnet (process ${previous.servicePid}).`,
      {
        details: 'Stop that devnet first, or use another --state-dir.',
      },
    )
  const deadline = Date.now() + 10_000
  while (anvilsAlive().length > 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 25))
  const left = anvilsAlive()
  for (const pid of left) process.kill(pid, 'SIGKILL')
  log(
    `state dir ${stateDir}: the previous devnet (process ${previous.servicePid}) did not stop cleanly; ${left.length ? `killed ${left.length} Anvil(s) still running` : 'its Anvils had saved and exited'}`,
  )
  return true
}
