import { existsSync, readFileSync, statSync } from 'node:fs'
import { mkdir, readFile, rm } from 'node:fs/promises'
import { join } from 'node:path'
import { gzipSync } from 'node:zlib'
import { bytesToHex, type Hex } from 'viem'
import { readJsonSync, writeFileAtomic, writeJsonAtomic, writeJsonAtomicSync } from '../util/persistence'

/**
 * The layout of a `--state-dir`, for the chains (the services keep their own files beside):
 * - `chain-<id>.state`: a checkpoint, the hex `anvil_dumpState` returns (gzipped JSON of
 *   accounts, code, storage, blocks and transactions), written whole then renamed: at a clean
 *   stop, and every few seconds while blocks are mined;
 * - `chain-<id>.exit.json`: what Anvil itself writes (`--dump-state`) when it is stopped by a
 *   signal, notably the parent-death signal it gets when the service is killed: the chain as it
 *   was at that moment, newer than the checkpoint;
 * - `anvils.json`: the service and Anvil process ids while a devnet runs, so a restart waits for
 *   Anvils still writing their exit dump and refuses a state dir another devnet is using;
 * - `devnet.json`: the clock offset, when it was saved, and each chain's gas at the checkpoint
 *   (its head block and the base fee of its next block: Anvil's load does not keep the latter
 *   across the block every boot mines to align the clocks).
 */
export const chainStatePath = (dir: string, chainId: number) => join(dir, `chain-${chainId}.state`)
/** Anvil's own dump on exit (see the layout above). */
export const chainExitDumpPath = (dir: string, chainId: number) => join(dir, `chain-${chainId}.exit.json`)
const metaPath = (dir: string) => join(dir, 'devnet.json')
const processesPath = (dir: string) => join(dir, 'anvils.json')

/**
 * A chain's gas when its state was dumped: its head block's number and base fee (what an
 * `eth_call` at the head sees as `block.basefee`), and the base fee its next block will have.
 */
export type ChainGas = { blockNumber: string; baseFeePerGas?: string | undefined; nextBaseFeePerGas: string }

/** What `devnet.json` holds (`gas` by chain id; absent in a file of an older devnet). */
export type DevnetStateMeta = {
  version: 1
  offsetSeconds: number
  savedAt: string
  chainIds: number[]
  gas?: Record<string, ChainGas> | undefined
}

/** What `anvils.json` holds. */
export type DevnetProcesses = { servicePid: number; anvilPids: number[] }

/** A chain's saved state and where it came from. */
export type SavedChainState = { state: Hex; source: 'checkpoint' | 'exit-dump' }

/**
 * Reads a chain's saved state, if there is one: Anvil's exit dump when it is whole (it parses)
 * and newer than the checkpoint, else the checkpoint.
 */
export async function readChainState(dir: string, chainId: number): Promise<SavedChainState | undefined> {
  const checkpointPath = chainStatePath(dir, chainId)
  const exitPath = chainExitDumpPath(dir, chainId)
  const checkpointAt = existsSync(checkpointPath) ? statSync(checkpointPath).mtimeMs : -1
  if (existsSync(exitPath) && statSync(exitPath).mtimeMs >= checkpointAt) {
    const bytes = await readFile(exitPath)
    try {
      // A dump cut short (Anvil killed while writing) is not JSON: the checkpoint is used instead.
      JSON.parse(bytes.toString('utf8'))
      // Gzipped, as `anvil_dumpState` answers: Anvil takes either, but refuses a request body of
      // a few MB, which a plain dump of a busy chain exceeds.
      return { state: bytesToHex(gzipSync(bytes)), source: 'exit-dump' }
    } catch {}
  }
  if (checkpointAt < 0) return undefined
  const text = (await readFile(checkpointPath, 'utf8')).trim()
  return text.startsWith('0x') ? { state: text as Hex, source: 'checkpoint' } : undefined
}

/** Reads `devnet.json`, if there is one.
 *
 * @example
 * const meta = await readStateMeta('bug.yaml.state')
 */
export async function readStateMeta(dir: string): Promise<DevnetStateMeta | undefined> {
  if (!existsSync(metaPath(dir))) return undefined
  return JSON.parse(await readFile(metaPath(dir), 'utf8')) as DevnetStateMeta
}

/**
 * Writes `devnet.json` (atomically and durably).
 *
 * @example
 * await writeStateMeta(dir, { offsetSeconds: 0, chainIds: [10, 8453] })
 */
export function writeStateMeta(
  dir: string,
  meta: Omit<DevnetStateMeta, 'version' | 'savedAt'>,
): Promise<void> {
  const full: DevnetStateMeta = { version: 1, savedAt: new Date().toISOString(), ...meta }
  return writeJsonAtomic(metaPath(dir), full)
}

/**
 * Writes every chain's state and the meta file; each file is written whole, flushed, then renamed.
 *
 * @example
 * await writeDevnetState(dir, [{ chainId: 10, state }], { offsetSeconds: 0, chainIds: [10] })
 */
export async function writeDevnetState(
  dir: string,
  states: { chainId: number; state: Hex }[],
  meta: Omit<DevnetStateMeta, 'version' | 'savedAt'>,
): Promise<void> {
  await mkdir(dir, { recursive: true })
  await Promise.all(states.map(({ chainId, state }) => writeFileAtomic(chainStatePath(dir, chainId), state)))
  await writeStateMeta(dir, meta)
}

/** Removes the exit dumps (after a clean stop, the checkpoint is the newer state). */
export async function removeExitDumps(dir: string, chainIds: readonly number[]): Promise<void> {
  await Promise.all(chainIds.map((chainId) => rm(chainExitDumpPath(dir, chainId), { force: true })))
}

/** Records which processes run on this state dir (see the layout above). */
export function writeProcesses(dir: string, processes: DevnetProcesses): void {
  writeJsonAtomicSync(processesPath(dir), processes)
}

/** Forgets the processes (a clean stop). */
export async function removeProcesses(dir: string): Promise<void> {
  await rm(processesPath(dir), { force: true })
}

/** The processes a previous devnet recorded, if it did not stop cleanly. */
export function readProcesses(dir: string): DevnetProcesses | undefined {
  return readJsonSync<DevnetProcesses>(processesPath(dir))
}

/** The command name of a live process, or undefined when there is none or it has exited (a zombie). */
export function processName(pid: number): string | undefined {
  try {
    process.kill(pid, 0)
  } catch {
    return undefined
  }
  try {
    const [, name, state] = readFileSync(`/proc/${pid}/stat`, 'utf8').match(/^\d+ \((.*)\) (\S)/) ?? []
    return state === 'Z' ? undefined : name
  } catch {
    // No /proc (not Linux): the process exists, its name is unknown.
    return 'unknown'
  }
}
