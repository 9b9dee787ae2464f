import { existsSync } from 'node:fs'
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import type { Hex } from 'viem'

/**
 * The layout of a `--state-dir`: one `chain-<id>.state` per chain (the hex `anvil_dumpState`
 * returns: gzipped JSON of accounts, code, storage and blocks) and `devnet.json` (the clock
 * offset and when it was saved).
 */
export const chainStatePath = (dir: string, chainId: number) => join(dir, `chain-${chainId}.state`)
const metaPath = (dir: string) => join(dir, 'devnet.json')

/** What `devnet.json` holds. */
export type DevnetStateMeta = { version: 1; offsetSeconds: number; savedAt: string; chainIds: number[] }

/** Reads a chain's saved state, if there is one. */
export async function readChainState(dir: string, chainId: number): Promise<Hex | undefined> {
  const path = chainStatePath(dir, chainId)
  if (!existsSync(path)) return undefined
  const text = (await readFile(path, 'utf8')).trim()
  return text.startsWith('0x') ? (text as Hex) : undefined
}

/** Reads `devnet.json`, if there is one. */
export async function readStateMeta(dir: string): Promise<DevnetStateMeta | undefined> {
  if (!existsSync(metaPath(dir))) return undefined
  return JSON.parse(await readFile(metaPath(dir), 'utf8')) as DevnetStateMeta
}

/** Writes every chain's state and the meta file; each file is written whole, then renamed. */
export async function writeDevnetState(
  dir: string,
  states: { chainId: number; state: Hex }[],
  meta: Omit<DevnetStateMeta, 'version' | 'savedAt'>,
): Promise<void> {
  await mkdir(dir, { recursive: true })
  const write = async (path: string, text: string) => {
    await writeFile(`${path}.tmp`, text)
    await rename(`${path}.tmp`, path)
  }
  await Promise.all(states.map(({ chainId, state }) => write(chainStatePath(dir, chainId), state)))
  const full: DevnetStateMeta = { version: 1, savedAt: new Date().toISOString(), ...meta }
  await write(metaPath(dir), `${JSON.stringify(full, null, 2)}\n`)
}
