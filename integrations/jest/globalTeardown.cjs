// Jest global teardown: stops the devnet globalSetup.cjs started (SIGTERM: the service stops
// its Anvils), and waits for it to exit.

/**
 * Stops the devnet of the run.
 *
 * @example
 * // jest.config.js
 * module.exports = { globalTeardown: 'intent-devnet/jest/globalTeardown' }
 */
module.exports = async function globalTeardown() {
  const child = globalThis.__INTENT_DEVNET__
  if (!child || child.exitCode !== null) return
  const exited = new Promise((resolve) => child.once('exit', resolve))
  child.kill('SIGTERM')
  await exited
  globalThis.__INTENT_DEVNET__ = undefined
}
