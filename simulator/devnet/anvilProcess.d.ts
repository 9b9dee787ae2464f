import type { ChildProcess } from 'node:child_process'

/** Path of the Anvil binary shipped by the `@foundry-rs/anvil` npm package (or $ANVIL_BINARY). */
export function anvilBinaryPath(): string

/** The launcher's command for `file args`: `[file, args]` to spawn, `detached`. */
export function anvilCommand(file: string, args: readonly string[]): [string, string[]]

/** The process id and port in an Anvil's output so far. */
export function parseAnvilOutput(output: string): { pid: number | undefined; port: number | undefined }

/** Symbol.for key of the Anvils bin/intent-devnet.js started early. */
export const EARLY_ANVILS: string

/** An Anvil the bin started before the CLI loaded, until anvil.ts adopts it. */
export type EarlyAnvil = {
  chainId: number
  host: string
  /** The state it was started from (`--load-state`), if any. */
  loadStatePath: string | undefined
  child: ChildProcess
  /** The last 4000 characters it printed. */
  output: string
  /** Set once it has exited (or could not be spawned). */
  exited: boolean
  /** Called on every chunk of output and on exit. */
  onChange: () => void
}

/** Starts one Anvil on a free port as the launcher does, unreferenced until adopted. */
export function spawnEarlyAnvil(parameters: {
  chainId: number
  host: string
  /** `--load-state`: the baked boot state of this chain (bootStateFiles.js). */
  loadStatePath?: string | undefined
}): EarlyAnvil
