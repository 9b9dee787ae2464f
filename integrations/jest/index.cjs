// What a Jest test file uses: the manifest of the run's devnet, and snapshot/revert isolation.
// Test files run in Jest's workers: the manifest reaches them as a file named in the
// environment (INTENT_DEVNET_MANIFEST, set by globalSetup.cjs in Jest's parent process).
const { readFileSync } = require('node:fs')
// The contract's control client (spec/controlClient.ts), built as CommonJS
// (scripts/buildPackage.ts: `npm install` in a checkout, `npm pack` for the package).
const { createControlClient } = require('../../dist/lib/spec.cjs')

let cached
/**
 * The manifest of the devnet globalSetup started (chains with RPC URLs, contracts, tokens,
 * funded accounts, the service's URL and key).
 *
 * @example
 * const { service, chains } = devnetManifest()
 */
function devnetManifest() {
  const path = process.env.INTENT_DEVNET_MANIFEST
  if (!path)
    throw new Error(
      'INTENT_DEVNET_MANIFEST is not set: add intent-devnet/jest/globalSetup to the Jest config.',
    )
  if (cached?.path !== path) cached = { path, manifest: JSON.parse(readFileSync(path, 'utf8')) }
  return cached.manifest
}

/** The control client of the run's devnet. */
function control() {
  const { service } = devnetManifest()
  return createControlClient({ baseUrl: service.baseUrl, apiKey: service.apiKey })
}

/**
 * Snapshots every chain (and the clock) through `POST /_devnet/snapshot`; resolves to its id.
 *
 * @example
 * const id = await snapshotDevnet()
 */
async function snapshotDevnet() {
  return control().snapshot()
}

/**
 * Reverts every chain (and the clock) to a snapshot through `POST /_devnet/revert`.
 *
 * @example
 * await revertDevnet(id)
 */
async function revertDevnet(id) {
  await control().revert(id)
}

/**
 * A snapshot of every chain and the clock before each test of the file (or `describe`), a revert
 * after it. Chains and clock only: the service's own records (intents, quotes, deposits) are not
 * rolled back. Files that isolate this way must not run at the same time as other files that
 * change the chains (--runInBand, or `maxWorkers: 1`, when several do).
 *
 * @example
 * const { isolateDevnet } = require('intent-devnet/jest')
 * isolateDevnet()
 */
function isolateDevnet() {
  let id
  beforeEach(async () => {
    id = await snapshotDevnet()
  })
  afterEach(async () => {
    if (id !== undefined) await revertDevnet(id)
    id = undefined
  })
}

module.exports = { devnetManifest, isolateDevnet, snapshotDevnet, revertDevnet }
