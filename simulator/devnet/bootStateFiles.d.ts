/** Folder of the baked boot state, relative to the project's root. */
export const BOOT_STATE_DIR: string

/** The bake's stamp file name, in {@link BOOT_STATE_DIR}. */
export const BOOT_STATE_STAMP: string

/** What the bake's stamp holds. */
export type BootStateStamp = {
  version: 1
  /** The bundle it was baked for (scripts/build.ts BuildStamp's `bundle`). */
  bundle: { size: number; mtimeMs: number }
  /** The Anvil binary that baked it: [path, size, mtimeMs]. */
  anvil: [string, number, number]
  /** Per chain id: the dump (file name in the folder, its size and mtime) and its last block. */
  chains: Record<
    string,
    { file: string; size: number; mtimeMs: number; blockNumber: number; blockHash: string }
  >
}

/** A fresh bake: per chain id, the dump's path and the block (number, hash) it ends at. */
export type FreshBootState = {
  chains: Record<string, { path: string; blockNumber: number; blockHash: string }>
}

/** True when this root is an installed package (built at `npm pack` elsewhere): its build is trusted, never rebuilt. */
export function isPackedInstall(root: string): boolean

/** True when the CLI's bundle exists and no input changed since it was built. */
export function bundleFresh(root: string): boolean

/** The baked boot state when it is fresh, else undefined. */
export function freshBootState(
  root: string,
  options?: { bundleChecked?: boolean | undefined },
): FreshBootState | undefined
