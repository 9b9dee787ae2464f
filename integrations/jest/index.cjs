// What a Jest test file uses: the manifest of the run's devnet, and snapshot/revert isolation.
const { readFileSync } = require('node:fs')

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
  return JSON.parse(readFileSync(path, 'utf8'))
}

async function control(path, body) {
  const { service } = devnetManifest()
  const response = await fetch(`${service.baseUrl}${path}`, {
    method: 'POST',
    headers: { 'x-api-key': service.apiKey, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  })
  if (!response.ok) throw new Error(`POST ${path} answered ${response.status}: ${await response.text()}`)
  return response.json()
}

/**
 * A snapshot of every chain and the clock before each test of the file, a revert after it
 * (chains and clock only; run such files with --runInBand when others change the chains).
 *
 * @example
 * const { isolateDevnet } = require('intent-devnet/jest')
 * isolateDevnet()
 */
function isolateDevnet() {
  let id
  beforeEach(async () => {
    id = (await control('/_devnet/snapshot', {})).id
  })
  afterEach(async () => {
    if (id !== undefined) await control('/_devnet/revert', { id })
    id = undefined
  })
}

module.exports = { devnetManifest, isolateDevnet }
