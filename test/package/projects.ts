// The integrators' projects the package tests (install.test.ts) write beside the installed
// tarball: each uses the package as its README says, through its public entry points only.

/** Every export of the package and a public name each offers. */
export const EXPORTS = {
  'intent-devnet': 'startSimulator',
  'intent-devnet/conformance': 'runConformance',
  'intent-devnet/spec': 'parseStartOptions',
  'intent-devnet/testcontainers': 'IntentDevnetContainer',
  'intent-devnet/vitest': 'isolateDevnet',
  'intent-devnet/jest': 'devnetManifest',
  'intent-devnet/jest/globalSetup': 'default',
  'intent-devnet/jest/globalTeardown': 'default',
} as const

/** Plain Node, ES modules: imports every export and prints what it found. */
export const esmCheck = `
const entries = ${JSON.stringify(EXPORTS)}
const found = {}
for (const [name, key] of Object.entries(entries)) {
  const module = await import(name)
  found[name] = typeof module[key]
}
console.log(JSON.stringify(found))
`

/** Plain Node, CommonJS: requires every export (ES-module ones through Node's require of ESM). */
export const cjsCheck = `
const entries = ${JSON.stringify(EXPORTS)}
const found = {}
for (const [name, key] of Object.entries(entries)) {
  const module = require(name)
  found[name] = typeof (key === 'default' ? module : module[key])
}
console.log(JSON.stringify(found))
`

/** A strict TypeScript consumer (NodeNext) using each export's public names. */
export const strictTypeScript = {
  'package.json': JSON.stringify({ name: 'strict-ts', private: true, type: 'module' }),
  'tsconfig.json': JSON.stringify({
    compilerOptions: {
      module: 'NodeNext',
      moduleResolution: 'NodeNext',
      target: 'ES2022',
      strict: true,
      exactOptionalPropertyTypes: true,
      noPropertyAccessFromIndexSignature: true,
      noUncheckedIndexedAccess: true,
      skipLibCheck: false,
      noEmit: true,
      types: ['node'],
    },
    include: ['index.ts'],
  }),
  'index.ts': `
import { startSimulator, type StartSimulatorParameters, type Simulator } from 'intent-devnet'
import { runConformance, loadScenarios } from 'intent-devnet/conformance'
import { createControlClient, DevnetManifest, START_OPTIONS, type StartOptions } from 'intent-devnet/spec'
import { IntentDevnetContainer, type StartedIntentDevnetContainer } from 'intent-devnet/testcontainers'
import { isolateDevnet, snapshotDevnet, revertDevnet, workerDevnet, type IntentDevnetVitestOptions } from 'intent-devnet/vitest'
import { devnetManifest, isolateDevnet as isolateJest } from 'intent-devnet/jest'

const options: StartOptions = { chainIds: [10], rpcPort: 8545, mnemonic: 'test test test test test test test test test test test junk', accountCount: 2, balance: 5, blockTime: 1 }
const parameters: StartSimulatorParameters = { ...options, port: 0 }
const vitestOptions: IntentDevnetVitestOptions = { ...options, perWorker: true }
export async function use(): Promise<string> {
  const sim: Simulator = await startSimulator(parameters)
  const control = createControlClient({ baseUrl: sim.baseUrl, apiKey: sim.apiKey })
  const manifest: DevnetManifest = await control.manifest()
  const id: string = await control.snapshot()
  await control.revert(id)
  await sim.close()
  const container: IntentDevnetContainer = new IntentDevnetContainer().withChainIds([10]).withRpcPort(9000).withStrictVersion()
  const started: StartedIntentDevnetContainer | undefined = undefined
  void started
  void container
  void runConformance
  void (await loadScenarios()).length
  void [isolateDevnet, snapshotDevnet, revertDevnet, workerDevnet, devnetManifest, isolateJest, vitestOptions]
  return START_OPTIONS.rpcPort.flag + (manifest.accounts[0]?.address ?? '')
}
`,
}

/** node:test with startSimulator, as the README shows it. */
export const nodeTest = `
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { startSimulator } from 'intent-devnet'

test('a devnet from node:test', async () => {
  const sim = await startSimulator({ port: 0, chainIds: [10], accountCount: 2, balance: 3 })
  try {
    assert.equal((await fetch(sim.baseUrl + '/health')).status, 200)
    const { accounts } = sim.manifest()
    assert.equal(accounts.length, 2)
    const rpc = await fetch(sim.manifest().chains[0].rpcUrl, {
      method: 'POST', headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_getBalance', params: [accounts[0].address, 'latest'] }),
    })
    assert.equal(BigInt((await rpc.json()).result), 3n * 10n ** 18n)
  } finally {
    await sim.close()
  }
})
`

/** A Jest project of ES modules (`"type": "module"`, run with --experimental-vm-modules). */
export const jestEsm = {
  'package.json': JSON.stringify({ name: 'jest-esm', private: true, type: 'module' }),
  'jest.config.js': `export default {
  testMatch: ['<rootDir>/*.test.js'],
  transform: {},
  globalSetup: 'intent-devnet/jest/globalSetup',
  globalTeardown: 'intent-devnet/jest/globalTeardown',
  globals: { intentDevnetOptions: { chainIds: [10], accountCount: 3 } },
}
`,
  'devnet.test.js': `import { devnetManifest, isolateDevnet } from 'intent-devnet/jest'

isolateDevnet()

test('the devnet of the run, with the options of the config', async () => {
  const manifest = devnetManifest()
  expect(manifest.accounts).toHaveLength(3)
  expect((await fetch(manifest.service.baseUrl + '/health')).status).toBe(200)
})
`,
}

/** The testcontainers module from plain Node (ES modules). */
export const testcontainersNode = `
import { IntentDevnetContainer } from 'intent-devnet/testcontainers'
const devnet = await new IntentDevnetContainer(process.env.IMAGE).withChainIds([10]).withAccountCount(2).start()
try {
  const manifest = await devnet.manifest()
  console.log(JSON.stringify({ health: (await fetch(devnet.baseUrl + '/health')).status, accounts: manifest.accounts.length }))
} finally {
  await devnet.stop()
}
`
