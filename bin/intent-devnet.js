#!/usr/bin/env node
// Runs the CLI from its bundle (dist/intent-devnet.mjs, built by scripts/build.ts at install),
// which starts without a TypeScript loader. The bundle is used only when fresh: its stamp lists
// every source file it was built from with size and mtime, and any difference rebuilds it here
// first. When it cannot be built, or INTENT_DEVNET_BUNDLE=0, the sources run through tsx's loader
// in this same process (signals reach the service directly either way).
import { readFileSync, statSync } from 'node:fs'

const root = new URL('../', import.meta.url)
const bundle = new URL('dist/intent-devnet.mjs', root)
const stamp = new URL('dist/intent-devnet.stamp.json', root)

const sameFile = (url, size, mtimeMs) => {
  try {
    const stat = statSync(url)
    return stat.size === size && stat.mtimeMs === mtimeMs
  } catch {
    return size === -1
  }
}

/** True when the bundle exists and no input changed since it was built (scripts/build.ts staleReason). */
const fresh = () => {
  try {
    const { bundle: built, inputs } = JSON.parse(readFileSync(stamp, 'utf8'))
    if (!sameFile(bundle, built.size, built.mtimeMs)) return false
    return inputs.every(([path, size, mtimeMs]) => sameFile(new URL(path, root), size, mtimeMs))
  } catch {
    return false
  }
}

/** Registers tsx's loader (once); returns its unregister function. */
let unregisterTsx
const registerTsx = async () => {
  unregisterTsx ??= (await import('tsx/esm/api')).register()
  return unregisterTsx
}

/** Rebuilds the bundle (through tsx, which loads scripts/build.ts); false when that fails. */
const rebuild = async () => {
  try {
    await registerTsx()
    const { buildBundle } = await import('../scripts/build.ts')
    await buildBundle('intent-devnet')
    // The bundle needs no loader: without tsx's hooks it loads as fast as on a fresh start.
    await unregisterTsx()
    unregisterTsx = undefined
    return true
  } catch (error) {
    if (process.env.INTENT_DEVNET_DEBUG) console.error('intent-devnet: cannot build the bundle:', error)
    return false
  }
}

const useBundle = process.env.INTENT_DEVNET_BUNDLE !== '0' && (fresh() || (await rebuild()))
if (useBundle) await import(bundle.href)
else {
  await registerTsx()
  await import('../simulator/cli/main.ts')
}
