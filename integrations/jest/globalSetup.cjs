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
const { spawn } = require('node:child_process')
const { mkdtempSync, readFileSync, rmSync } = require('node:fs')
const { tmpdir } = require('node:os')
const { join } = require('node:path')

const bin = join(__dirname, '..', '..', 'bin', 'intent-devnet.js')
/** Stops the devnet when this process ends without the teardown (its stdin: a pipe from here). */
const stopWithParent = join(__dirname, 'stopWithParent.cjs')
/** globalThis key of the running devnet ({ child, dir, stop }), read by globalTeardown.cjs. */
const STATE = Symbol.for('intent-devnet.jest')
const START_TIMEOUT_MS = 120_000

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
  const dir = mkdtempSync(join(tmpdir(), 'intent-devnet-jest-'))
  const manifestPath = join(dir, 'manifest.json')
  const args = ['--require', stopWithParent, bin, 'up', '--port', '0', '--manifest', manifestPath]
  if (options.chains) args.push('--chains', options.chains.join(','))
  if (options.apiKey) args.push('--api-key', options.apiKey)
  if (options.strictVersion) args.push('--strict-version')
  if (options.quoteTtlSeconds) args.push('--quote-ttl', String(options.quoteTtlSeconds))
  if (options.swapFeeBps !== undefined) args.push('--swap-fee-bps', String(options.swapFeeBps))
  const child = spawn(process.execPath, args, { stdio: ['pipe', 'pipe', 'pipe'] })
  // Should Jest end without its teardown (--forceExit, an error in another hook, a signal), the
  // pipe closes and the devnet stops (stopWithParent.cjs).
  child.stdin.on('error', () => {})
  let output = ''
  let stopping = false
  const stop = async () => {
    stopping = true
    if (child.exitCode === null && child.signalCode === null) {
      const exited = new Promise((resolve) => child.once('exit', resolve))
      child.ref() // this process waits for it (unref'd below)
      child.kill('SIGTERM')
      await exited
    }
    rmSync(dir, { recursive: true, force: true })
    if (globalThis[STATE]?.child === child) globalThis[STATE] = undefined
  }
  const onData = (chunk) => {
    // The last lines, for an error: the CLI prints little once it is up.
    output = `${output}${chunk}`.slice(-8000)
  }
  child.stdout.on('data', onData)
  child.stderr.on('data', onData)
  try {
    await new Promise((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new Error(`intent-devnet did not start in ${START_TIMEOUT_MS / 1000} s:\n${output}`)),
        START_TIMEOUT_MS,
      )
      const onStarted = () => {
        // The CLI prints its accounts last, after the manifest file is written.
        if (!/funded accounts/.test(output)) return
        clearTimeout(timer)
        child.off('exit', onEarlyExit)
        child.stdout.off('data', onStarted)
        resolve()
      }
      const onEarlyExit = (code, signal) => {
        clearTimeout(timer)
        reject(new Error(`intent-devnet exited (${signal ?? code}) before it was up:\n${output}`))
      }
      child.stdout.on('data', onStarted)
      child.once('exit', onEarlyExit)
    })
  } catch (error) {
    await stop()
    throw error
  }
  child.once('exit', (code, signal) => {
    if (!stopping) console.error(`intent-devnet stopped during the Jest run (${signal ?? code}):\n${output}`)
  })
  // Nothing of the devnet keeps Jest's process alive (a config without the teardown still ends;
  // the devnet then stops with it).
  for (const handle of [child, child.stdin, child.stdout, child.stderr]) handle.unref()
  const manifest = JSON.parse(readFileSync(manifestPath, 'utf8'))
  process.env.INTENT_DEVNET_MANIFEST = manifestPath
  process.env.INTENT_DEVNET_URL = manifest.service.baseUrl
  process.env.INTENT_DEVNET_API_KEY = manifest.service.apiKey
  globalThis[STATE] = { child, dir, stop }
}
