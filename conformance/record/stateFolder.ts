import { existsSync } from 'node:fs'
import { readFile, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import type { RecordedChainState } from './recording'

/** The state folder that travels with a recorded scenario file. */
export const stateDirOf = (file: string) => `${file}.state`

/** What `FILE.state/service.json` holds: the service as it was configured when recording began. */
export type RecordedService = {
  quoteTtlSeconds?: number | undefined
  swapFeeBps?: number | undefined
  /** The gas price quotes charge per chain, gwei by chain id (`--gas-price`). */
  gasPrices?: Record<string, string> | undefined
  /** The service refused requests without `x-api-version` (`--strict-version`). */
  strictVersion?: boolean | undefined
  /** The devnet's mnemonic and how many funded accounts it had (`--mnemonic`, `--accounts`). */
  mnemonic?: string | undefined
  accountCount?: number | undefined
  /** USD prices by token symbol. */
  prices?: Record<string, number> | undefined
  /**
   * The devnet's time when the recording began, unix seconds: a replay's simulator starts its
   * clock there (absent in folders of older recorders: the replay then keeps `devnet.json`'s
   * offset to the wall clock).
   */
  clockAt?: number | undefined
}

const servicePath = (dir: string) => join(dir, 'service.json')

/**
 * Writes what a replay restores into a recording's state folder: the chains and the clock in the
 * layout of a simulator `--state-dir` (each chain's gas in `devnet.json`), and the service's
 * configuration and price table in `service.json`.
 *
 * @example
 * await writeRecordedState('bug.yaml.state', recording.chainState)
 */
export async function writeRecordedState(dir: string, captured: RecordedChainState): Promise<void> {
  // The simulator's state-dir format, from its public entry, loaded only when a state is at hand.
  const { writeDevnetState } = await import('../../simulator/index')
  const gas = Object.fromEntries(captured.chains.flatMap((c) => (c.gas ? [[String(c.chainId), c.gas]] : [])))
  await writeDevnetState(
    dir,
    captured.chains.map(({ chainId, state }) => ({ chainId, state })),
    {
      offsetSeconds: captured.offsetSeconds,
      chainIds: captured.chains.map((c) => c.chainId),
      ...(Object.keys(gas).length > 0 && { gas }),
    },
  )
  const service: RecordedService = {
    ...captured.service,
    prices: captured.prices,
    ...(captured.now !== undefined && { clockAt: captured.now }),
  }
  await writeFile(servicePath(dir), `${JSON.stringify(service, null, 2)}\n`)
}

/**
 * Reads `service.json` of a recording's state folder (empty for a folder written before it was).
 *
 * @example
 * const { quoteTtlSeconds, prices } = await readRecordedService('bug.yaml.state')
 */
export async function readRecordedService(dir: string): Promise<RecordedService> {
  if (!existsSync(servicePath(dir))) return {}
  return JSON.parse(await readFile(servicePath(dir), 'utf8')) as RecordedService
}
