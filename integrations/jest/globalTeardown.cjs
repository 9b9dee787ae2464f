// Jest global teardown: stops the devnet globalSetup.cjs started (SIGTERM: the CLI stops its
// Anvils, then exits), waits for it to exit, and removes its manifest file. It runs in Jest's
// parent process, as the setup does, and finds the devnet on globalThis.

/**
 * Stops the devnet of the run.
 *
 * @example
 * // jest.config.js
 * module.exports = { globalTeardown: 'intent-devnet/jest/globalTeardown' }
 */
module.exports = async function globalTeardown() {
  const state = globalThis[Symbol.for('intent-devnet.jest')]
  if (!state) return
  await state.stop()
  delete process.env.INTENT_DEVNET_MANIFEST
  delete process.env.INTENT_DEVNET_URL
  delete process.env.INTENT_DEVNET_API_KEY
}
