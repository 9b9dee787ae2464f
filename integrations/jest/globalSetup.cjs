// Jest global setup (plain CommonJS, so Jest loads it from node_modules without a transform):
// starts one devnet for the run with the `intent-devnet up` CLI in a child process, waits until
// it listens, and hands its manifest to the test files through the environment.
// Options: `globals.intentDevnetOptions` in the Jest config ({ chains, apiKey, strictVersion,
// quoteTtlSeconds, swapFeeBps }).
const { spawn } = require('node:child_process')
const { mkdtempSync, readFileSync } = require('node:fs')
const { tmpdir } = require('node:os')
const { join } = require('node:path')

const bin = join(__dirname, '..', '..', 'bin', 'intent-devnet.js')

/**
 * Starts the devnet; sets INTENT_DEVNET_MANIFEST (a JSON file), INTENT_DEVNET_URL and
 * INTENT_DEVNET_API_KEY for the test files.
 *
 * @example
 * // jest.config.js
 * module.exports = { globalSetup: 'intent-devnet/jest/globalSetup', globalTeardown: 'intent-devnet/jest/globalTeardown' }
 */
module.exports = async function globalSetup(_globalConfig, projectConfig) {
  const options = projectConfig?.globals?.intentDevnetOptions ?? {}
  const manifestPath = join(mkdtempSync(join(tmpdir(), 'intent-devnet-jest-')), 'manifest.json')
  const args = [bin, 'up', '--port', '0', '--manifest', manifestPath]
  if (options.chains) args.push('--chains', options.chains.join(','))
  if (options.apiKey) args.push('--api-key', options.apiKey)
  if (options.strictVersion) args.push('--strict-version')
  if (options.quoteTtlSeconds) args.push('--quote-ttl', String(options.quoteTtlSeconds))
  if (options.swapFeeBps !== undefined) args.push('--swap-fee-bps', String(options.swapFeeBps))
  const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'pipe'] })
  let output = ''
  await new Promise((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`intent-devnet did not start in 120 s:\n${output}`)),
      120_000,
    )
    const onData = (chunk) => {
      output += chunk
      if (/funded accounts/.test(output)) {
        clearTimeout(timer)
        resolve()
      }
    }
    child.stdout.on('data', onData)
    child.stderr.on('data', onData)
    child.once('exit', (code) => {
      clearTimeout(timer)
      reject(new Error(`intent-devnet exited with ${code} before it was up:\n${output}`))
    })
  })
  child.stdout.resume()
  child.stderr.resume()
  const manifest = JSON.parse(readFileSync(manifestPath, 'utf8'))
  process.env.INTENT_DEVNET_MANIFEST = manifestPath
  process.env.INTENT_DEVNET_URL = manifest.service.baseUrl
  process.env.INTENT_DEVNET_API_KEY = manifest.service.apiKey
  // globalTeardown runs in this same process.
  globalThis.__INTENT_DEVNET__ = child
}
