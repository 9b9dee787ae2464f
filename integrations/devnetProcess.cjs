// Starts a devnet (`intent-devnet up`: the package's own CLI, which runs its bundle, or the sources
// through tsx, a dependency) in a child process of the calling test runner, and stops it. Shared
// by the Jest and vitest global setups: a devnet in a process of its own runs on a core of its
// own (a setup that ran the service in the runner's main process would put every file's service
// work on that one thread), and it stops with its parent however the parent ends
// (stopWithParent.cjs: its stdin is a pipe from here).
const { spawn } = require('node:child_process')
const { mkdtempSync, readFileSync, rmSync } = require('node:fs')
const { tmpdir } = require('node:os')
const { join } = require('node:path')

const bin = join(__dirname, '..', 'bin', 'intent-devnet.js')
const stopWithParent = join(__dirname, 'jest', 'stopWithParent.cjs')
const START_TIMEOUT_MS = 120_000

/**
 * Starts one devnet on free ports and waits until it serves. `options`: any start options
 * (spec/startOptions.ts, the one list: `chainIds`, `rpcPort`, `mnemonic`, …), handed
 * to `up` as they are and checked there; an unknown name fails the start with the valid ones.
 *
 * @param {import('../spec/startOptions').DevnetProcessOptions} [options]
 * @returns {Promise<{ manifest: any, manifestPath: string, child: import('node:child_process').ChildProcess, stop: () => Promise<void> }>}
 *
 * @example
 * const devnet = await startDevnetProcess({ chainIds: [10, 8453] })
 * console.log(devnet.manifest.service.baseUrl)
 * await devnet.stop()
 */
async function startDevnetProcess(options = {}) {
  const dir = mkdtempSync(join(tmpdir(), 'intent-devnet-'))
  const manifestPath = join(dir, 'manifest.json')
  const args = ['--require', stopWithParent, bin, 'up', '--port', '0', '--manifest', manifestPath]
  args.push('--options-json', JSON.stringify(options))
  const child = spawn(process.execPath, args, { stdio: ['pipe', 'pipe', 'pipe'] })
  child.stdin.on('error', () => {})
  let output = ''
  let stopping = false
  const stop = async () => {
    stopping = true
    if (child.exitCode === null && child.signalCode === null) {
      const exited = new Promise((resolve) => child.once('exit', resolve))
      child.ref() // the caller waits for it (a caller may have unref'd it)
      child.kill('SIGTERM')
      await exited
    }
    rmSync(dir, { recursive: true, force: true })
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
    if (!stopping) console.error(`intent-devnet stopped during the test run (${signal ?? code}):\n${output}`)
  })
  const manifest = JSON.parse(readFileSync(manifestPath, 'utf8'))
  return { manifest, manifestPath, child, stop }
}

module.exports = { startDevnetProcess }
