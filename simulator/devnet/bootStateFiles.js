// Where the devnet's boot state is baked (dist/devnet-state, by scripts/build.ts) and whether it
// is fresh (issue 18). Plain JavaScript: bin/intent-devnet.js checks it before the CLI's bundle
// loads, to start its early Anvils with `--load-state`. Types: bootStateFiles.d.ts; the bake
// itself: bootState.ts.
//
// A devnet without a state dir or fork, with the default keys, always boots to the same chain
// state: our contracts placed, the accounts funded, the Compact deposits made. The bake is that
// state, one Anvil dump per chain, made by the same code as the bundle: its stamp names the
// bundle it was baked for (size, mtime), and the bundle's own stamp lists every source (the
// contracts' artifacts, placement, funding, keys) with size and mtime. So it is fresh exactly
// when the bundle is, the Anvil binary is the one that baked it, and each dump is as written.
import { readFileSync, realpathSync, statSync } from 'node:fs'
import { join } from 'node:path'
import { anvilBinaryPath } from './anvilProcess.js'

/** Folder of the baked boot state, relative to the project's root. */
export const BOOT_STATE_DIR = 'dist/devnet-state'

/** The bake's stamp, in {@link BOOT_STATE_DIR}: written last, names every dump. */
export const BOOT_STATE_STAMP = 'stamp.json'

/** scripts/build.ts bundlePath / stampPath of the CLI's bundle, relative to the root. */
const BUNDLE = 'dist/intent-devnet.mjs'
const BUNDLE_STAMP = 'dist/intent-devnet.stamp.json'

/** scripts/buildPackage.ts PACKED_MARKER: written at `npm pack`, names the root it was built in. */
const PACKED_MARKER = 'dist/packed.json'

/**
 * True when this root is an installed package (its build came in the tarball, made at `npm
 * pack` in another root): the build is then trusted as it is and never rebuilt; files are
 * compared by size alone (npm gives every file of a tarball the same mtime).
 */
export function isPackedInstall(root) {
  try {
    const marker = JSON.parse(readFileSync(join(root, PACKED_MARKER), 'utf8'))
    return marker.root !== realpathSync(root)
  } catch {
    return false
  }
}

const sameFile = (path, size, mtimeMs, packed = false) => {
  try {
    // A missing file is no exception (the stamp lists some that must not exist: size -1).
    const stat = statSync(path, { throwIfNoEntry: false })
    if (!stat) return size === -1
    return stat.size === size && (packed || stat.mtimeMs === mtimeMs)
  } catch {
    return size === -1
  }
}

/** True when the CLI's bundle exists and no input changed since it was built (scripts/build.ts staleReason); an installed package's bundle when it exists. */
export function bundleFresh(root) {
  if (isPackedInstall(root)) {
    try {
      const { bundle } = JSON.parse(readFileSync(join(root, BUNDLE_STAMP), 'utf8'))
      return sameFile(join(root, BUNDLE), bundle.size, bundle.mtimeMs, true)
    } catch {
      return false
    }
  }
  try {
    const { bundle, inputs } = JSON.parse(readFileSync(join(root, BUNDLE_STAMP), 'utf8'))
    if (!sameFile(join(root, BUNDLE), bundle.size, bundle.mtimeMs)) return false
    return inputs.every(([path, size, mtimeMs]) => sameFile(join(root, path), size, mtimeMs))
  } catch {
    return false
  }
}

/**
 * The baked boot state when it is fresh (see the top of this file), else undefined: per chain
 * id, the dump's path and the block (number, hash) it ends at. `bundleChecked`: the caller has just
 * found the bundle fresh ({@link bundleFresh}), which is not checked again.
 */
export function freshBootState(root, { bundleChecked = false } = {}) {
  try {
    const dir = join(root, BOOT_STATE_DIR)
    const stamp = JSON.parse(readFileSync(join(dir, BOOT_STATE_STAMP), 'utf8'))
    if (stamp.version !== 1) return undefined
    const { bundle } = JSON.parse(readFileSync(join(root, BUNDLE_STAMP), 'utf8'))
    // Installed: the bake came with the bundle in the tarball; the Anvil binary is this
    // install's, the same build when it has the same size.
    const packed = isPackedInstall(root)
    if (stamp.bundle.size !== bundle.size || (!packed && stamp.bundle.mtimeMs !== bundle.mtimeMs))
      return undefined
    const [anvil, anvilSize, anvilMtime] = stamp.anvil
    if (
      packed
        ? !sameFile(anvilBinaryPath(), anvilSize, 0, true)
        : anvil !== anvilBinaryPath() || !sameFile(anvil, anvilSize, anvilMtime)
    )
      return undefined
    const chains = {}
    for (const [chainId, { file, size, mtimeMs, blockNumber, blockHash }] of Object.entries(stamp.chains)) {
      if (!sameFile(join(dir, file), size, mtimeMs, packed)) return undefined
      chains[chainId] = { path: join(dir, file), blockNumber, blockHash }
    }
    if (!bundleChecked && !bundleFresh(root)) return undefined
    return { chains }
  } catch {
    return undefined
  }
}
