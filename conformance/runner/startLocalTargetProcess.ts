import { spawn } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { existsSync } from 'node:fs'
import { mkdtemp, readFile, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { BaseError } from '../../spec/BaseError'
import { LOCAL_TARGET_CHAIN_IDS, type LocalTarget } from './startLocalTarget'

/** The simulator process did not come up. */
export class LocalTargetProcessError extends BaseError {
  override name = 'Conformance.LocalTargetProcessError'
}

/** How long the simulator process may take to serve. */
const START_TIMEOUT_MS = 120_000

/** Parameters of {@link startLocalTargetProcess}. */
export type StartLocalTargetProcessParameters = {
  /** The CLI to run (`bin/intent-devnet.js`, e.g. `process.argv[1]` of the running CLI). */
  bin: string
  apiKey?: string | undefined
  chainIds?: readonly number[] | undefined
}

/**
 * Starts the simulator (`intent-devnet up` on loopback, port 0, the local target's chains) in a
 * child process and waits until it serves. Not integrations/devnetProcess.cjs (the vitest and
 * Jest setups' launcher): that one runs the package's bin, and the container image has neither
 * bin/ nor integrations/, only the bundle; this one runs the CLI that is running (`bin`). Waiting: a load generator in this process (the fuzzer) and
 * the simulator then each have a core, rather than sharing one event loop. The child stops
 * with this process however it ends (integrations/jest/stopWithParent.cjs, when shipped: its
 * stdin is a pipe from here).
 *
 * @example
 * const local = await startLocalTargetProcess({ bin: process.argv[1]! })
 * await local.stop()
 */
export async function startLocalTargetProcess(
  parameters: StartLocalTargetProcessParameters,
): Promise<LocalTarget> {
  const apiKey = parameters.apiKey ?? `fuzz-${randomBytes(6).toString('hex')}`
  const dir = await mkdtemp(join(tmpdir(), 'intent-devnet-fuzz-'))
  const manifestPath = join(dir, 'manifest.json')
  const stopWithParent = join(dirname(parameters.bin), '..', 'integrations', 'jest', 'stopWithParent.cjs')
  const options = { chainIds: [...(parameters.chainIds ?? LOCAL_TARGET_CHAIN_IDS)], apiKey }
  const args = [
    ...(existsSync(stopWithParent) ? ['--require', stopWithParent] : []),
    parameters.bin,
    'up',
    '--port',
    '0',
    '--manifest',
    manifestPath,
    '--options-json',
    JSON.stringify(options),
  ]
  const child = spawn(process.execPath, args, { stdio: ['pipe', 'pipe', 'pipe'] })
  child.stdin.on('error', () => {})
  let output = ''
  const keep = (chunk: Buffer) => {
    output = `${output}${chunk}`.slice(-8000)
  }
  child.stdout.on('data', keep)
  child.stderr.on('data', keep)
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      const exited = new Promise((resolve) => child.once('exit', resolve))
      child.kill('SIGTERM')
      await exited
    }
    await rm(dir, { recursive: true, force: true })
  }
  try {
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(
        () =>
          reject(
            new LocalTargetProcessError(
              `the simulator did not start in ${START_TIMEOUT_MS / 1000} s:\n${output}`,
            ),
          ),
        START_TIMEOUT_MS,
      )
      // `up` prints its funded accounts last, once the manifest is written.
      const onData = () => {
        if (!/funded accounts/.test(output)) return
        clearTimeout(timer)
        child.off('exit', onExit)
        child.stdout.off('data', onData)
        resolve()
      }
      const onExit = (code: number | null, signal: string | null) => {
        clearTimeout(timer)
        reject(
          new LocalTargetProcessError(
            `the simulator exited (${signal ?? code}) before it served:\n${output}`,
          ),
        )
      }
      child.stdout.on('data', onData)
      child.once('exit', onExit)
    })
    const manifest = JSON.parse(await readFile(manifestPath, 'utf8')) as { service: { baseUrl: string } }
    return { target: manifest.service.baseUrl, apiKey, apiKeys: [], stop }
  } catch (error) {
    await stop()
    throw error
  }
}
