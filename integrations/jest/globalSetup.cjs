// Jest global setup (plain CommonJS, so Jest loads it from node_modules without a transform):
// starts one devnet for the run with the package's own CLI (bin/intent-devnet.js `up`, which runs
// its bundle, or the sources through tsx, a dependency: no TypeScript loader is needed in Jest)
// in a child process, waits until it serves, and hands its manifest to the test files.
//
// globalSetup runs in Jest's parent process and the test files in its workers (or in the parent
// with --runInBand): what they get is the environment, set here before Jest starts the workers
// (INTENT_DEVNET_MANIFEST: the manifest as a JSON file; INTENT_DEVNET_URL, INTENT_DEVNET_API_KEY).
// globalTeardown runs in this same process and stops the devnet (state: STATE below).
//
// Options: `globals.intentDevnetOptions` in the Jest config ({ chains, apiKey, strictVersion,
// quoteTtlSeconds, swapFeeBps }).
const { startDevnetProcess } = require('../devnetProcess.cjs')

/** globalThis key of the running devnet ({ child, stop }), read by globalTeardown.cjs. */
const STATE = Symbol.for('intent-devnet.jest')

/**
 * Starts the devnet; sets INTENT_DEVNET_MANIFEST (a JSON file), INTENT_DEVNET_URL and
 * INTENT_DEVNET_API_KEY for the test files.
 *
 * @example
 * // jest.config.js
 * module.exports = {
 *   globalSetup: 'intent-devnet/jest/globalSetup',
 *   globalTeardown: 'intent-devnet/jest/globalTeardown',
 *   globals: { intentDevnetOptions: { chains: [10, 8453] } },
 * }
 */
module.exports = async function globalSetup(_globalConfig, projectConfig) {
  // Watch mode runs the setup before every run, after the teardown of the one before.
  if (globalThis[STATE]) await globalThis[STATE].stop()
  const options = projectConfig?.globals?.intentDevnetOptions ?? {}
  // Should Jest end without its teardown (--forceExit, an error in another hook, a signal), the
  // devnet's stdin pipe closes and it stops (stopWithParent.cjs).
  const { manifest, manifestPath, child, stop: stopDevnet } = await startDevnetProcess(options)
  const stop = async () => {
    await stopDevnet()
    if (globalThis[STATE]?.child === child) globalThis[STATE] = undefined
  }
  // Nothing of the devnet keeps Jest's process alive (a config without the teardown still ends;
  // the devnet then stops with it).
  for (const handle of [child, child.stdin, child.stdout, child.stderr]) handle.unref()
  process.env.INTENT_DEVNET_MANIFEST = manifestPath
  process.env.INTENT_DEVNET_URL = manifest.service.baseUrl
  process.env.INTENT_DEVNET_API_KEY = manifest.service.apiKey
  globalThis[STATE] = { child, stop }
}
