import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process'
import { BaseError } from '../../spec/BaseError'
import type { LocalTarget, StartLocalTargetParameters } from './startLocalTarget'

/** The simulator process did not come up. */
export class LocalTargetProcessError extends BaseError {
  override name = 'Conformance.LocalTargetProcessError'
}

/** What bin/intent-devnet.js leaves for this module when it started the child itself. */
type EarlyLocalTarget = {
  child: ChildProcessWithoutNullStreams
  /** The options it was started with, as JSON. */
  options: string
  /** Its output so far. */
  stdout: Buffer[]
  stderr: Buffer[]
  /** Stops the bin's collecting of its output. */
  release: () => void
}

const EARLY = Symbol.for('intent-devnet.earlyLocalTarget')

/**
 * The child bin/intent-devnet.js started before the CLI loaded (`conformance` without
 * --target), if it was started with these options: taken (once), with its output so far.
 */
function adoptEarly(options: string): EarlyLocalTarget | undefined {
  const slot = globalThis as { [EARLY]?: EarlyLocalTarget | undefined }
  const early = slot[EARLY]
  if (!early || early.options !== options) return undefined
  slot[EARLY] = undefined
  early.release()
  return early
}

/** How long the simulator process may take to serve. */
const START_TIMEOUT_MS = 120_000

/** Parameters of {@link startLocalTargetProcess}: where the CLI is, and {@link startLocalTarget}'s. */
export type StartLocalTargetProcessParameters = StartLocalTargetParameters & {
  /** The CLI to run (`bin/intent-devnet.js`, e.g. `process.argv[1]` of the running CLI). */
  bin: string
}

/**
 * Starts the simulator of a run without `--target` in a child process: the hidden
 * `intent-devnet local-target` (conformance/localTargetCli.ts), which calls startLocalTarget
 * there with these parameters and prints its URL and keys once it serves. A runner or a load
 * generator in this process and the simulator then each have a core, rather than sharing one
 * event loop (BENCHMARKS.md). bin/intent-devnet.js may have started it already, while the
 * bundle loaded: that child is taken when its options are these. It runs the CLI that is running (`bin`), never the package's
 * integrations/ (the container image ships only the bundle). The child stops with this process
 * however it ends: its stdin is a pipe from here, and it stops when that ends.
 *
 * @example
 * const local = await startLocalTargetProcess({ bin: process.argv[1]! })
 * await local.stop()
 */
export async function startLocalTargetProcess(
  parameters: StartLocalTargetProcessParameters,
): Promise<LocalTarget> {
  const { bin, ...options } = parameters
  const early = adoptEarly(JSON.stringify(options))
  const child =
    early?.child ??
    spawn(process.execPath, [bin, 'local-target', '--options-json', JSON.stringify(options)], {
      stdio: ['pipe', 'pipe', 'pipe'],
    })
  child.stdin.on('error', () => {})
  let output = ''
  let stdout = ''
  const keep = (chunk: Buffer) => {
    output = `${output}${chunk}`.slice(-8000)
  }
  child.stdout.on('data', keep)
  child.stderr.on('data', keep)
  for (const chunk of early?.stderr ?? []) keep(chunk)
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()))
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGTERM')
      await exited
    }
  }
  try {
    const served = await new Promise<Omit<LocalTarget, 'stop'>>((resolve, reject) => {
      const timer = setTimeout(
        () =>
          reject(
            new LocalTargetProcessError(
              `the simulator did not start in ${START_TIMEOUT_MS / 1000} s:\n${output}`,
            ),
          ),
        START_TIMEOUT_MS,
      )
      // Its one line of JSON, printed once it serves.
      const onData = (chunk: Buffer) => {
        stdout += chunk
        const line = stdout.split('\n').find((l, i, all) => i < all.length - 1 && l.startsWith('{'))
        if (line === undefined) return
        clearTimeout(timer)
        child.off('exit', onExit)
        child.stdout.off('data', onData)
        try {
          resolve(JSON.parse(line))
        } catch (error) {
          reject(
            new LocalTargetProcessError(`the simulator printed what is not JSON: ${line}`, { cause: error }),
          )
        }
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
      // What the child printed before this process took it over.
      for (const chunk of early?.stdout ?? []) {
        keep(chunk)
        onData(chunk)
      }
      if (early && (child.exitCode !== null || child.signalCode !== null))
        onExit(child.exitCode, child.signalCode)
    })
    return { target: served.target, apiKey: served.apiKey, apiKeys: served.apiKeys, stop }
  } catch (error) {
    await stop()
    throw error
  }
}
