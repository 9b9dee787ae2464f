import { type ChildProcess, spawn } from 'node:child_process'
import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'
import { BaseError } from '../util/BaseError'

/** Parameters of {@link startAnvil}. */
export type StartAnvilParameters = {
  chainId: number
  /** Loopback port; 0 (the default) lets the OS pick a free one. */
  port?: number | undefined
  host?: string | undefined
  /** EVM hardfork; Cancun or later is needed (TSTORE). Default `prague`. */
  hardfork?: string | undefined
  /** Fork this RPC URL instead of starting empty. */
  forkUrl?: string | undefined
  forkBlockNumber?: bigint | undefined
  /** `--state PATH`: load from and dump to this file. */
  statePath?: string | undefined
  /** Seconds between automatic blocks; default: mine on every transaction. */
  blockTime?: number | undefined
  /** Extra command line arguments. */
  args?: string[] | undefined
  /** How long to wait for the "Listening on" line. Default 15 s. */
  startTimeoutMs?: number | undefined
}

/** A running Anvil process. */
export type AnvilInstance = {
  chainId: number
  host: string
  port: number
  rpcUrl: string
  process: ChildProcess
  /** Resolves once the process has exited; sends SIGTERM, then SIGKILL after 3 s. */
  stop: () => Promise<void>
  /** True until the process exits. */
  readonly alive: boolean
}

export class AnvilStartError extends BaseError {
  override name = 'Devnet.AnvilStartError'
}

const require = createRequire(import.meta.url)

/** Path of the Anvil binary shipped by the `@foundry-rs/anvil` npm package. */
export function anvilBinaryPath(): string {
  if (process.env.ANVIL_BINARY) return process.env.ANVIL_BINARY
  const platform = process.platform === 'win32' ? 'win32' : process.platform
  const arch = process.arch === 'x64' ? 'amd64' : process.arch
  const pkg = require.resolve(`@foundry-rs/anvil-${platform}-${arch}/package.json`)
  return join(dirname(pkg), 'bin', process.platform === 'win32' ? 'anvil.exe' : 'anvil')
}

/** Every Anvil this process started and has not seen exit: stopped on process exit. */
const running = new Set<ChildProcess>()
let exitHookInstalled = false
function installExitHook() {
  if (exitHookInstalled) return
  exitHookInstalled = true
  // A last resort for crashes: 'exit' handlers must be synchronous, so kill without waiting.
  process.on('exit', () => {
    for (const child of running) child.kill('SIGKILL')
  })
}

/**
 * Starts one Anvil process and resolves once it listens.
 *
 * @example
 * const anvil = await startAnvil({ chainId: 10 })
 * // ... use anvil.rpcUrl
 * await anvil.stop()
 */
export function startAnvil(parameters: StartAnvilParameters): Promise<AnvilInstance> {
  const host = parameters.host ?? '127.0.0.1'
  const args = [
    '--host',
    host,
    '--port',
    String(parameters.port ?? 0),
    '--chain-id',
    String(parameters.chainId),
    '--hardfork',
    parameters.hardfork ?? 'prague',
  ]
  if (parameters.forkUrl) args.push('--fork-url', parameters.forkUrl)
  if (parameters.forkBlockNumber !== undefined)
    args.push('--fork-block-number', String(parameters.forkBlockNumber))
  if (parameters.statePath) args.push('--state', parameters.statePath)
  if (parameters.blockTime) args.push('--block-time', String(parameters.blockTime))
  if (parameters.args) args.push(...parameters.args)

  installExitHook()
  const child = spawn(anvilBinaryPath(), args, { stdio: ['ignore', 'pipe', 'pipe'] })
  running.add(child)
  let alive = true
  const exited = new Promise<void>((resolve) => {
    child.once('exit', () => {
      alive = false
      running.delete(child)
      resolve()
    })
  })

  return new Promise<AnvilInstance>((resolve, reject) => {
    let output = ''
    let settled = false
    const fail = (message: string, details?: string) => {
      if (settled) return
      settled = true
      clearTimeout(timer)
      child.kill('SIGKILL')
      reject(new AnvilStartError(message, { details: details ?? (output.trim().slice(-2000) || undefined) }))
    }
    const timer = setTimeout(
      () =>
        fail(
          `Anvil for chain ${parameters.chainId} did not start within ${parameters.startTimeoutMs ?? 15_000} ms.`,
        ),
      parameters.startTimeoutMs ?? 15_000,
    )
    const onData = (chunk: Buffer) => {
      if (settled) return
      output += chunk.toString()
      if (/address already in use/i.test(output))
        return fail(
          `Port ${parameters.port} is already in use: cannot start Anvil for chain ${parameters.chainId}.`,
        )
      const match = output.match(/Listening on ([\d.]+|\[[^\]]+\]|[\w.-]+):(\d+)/)
      if (!match) return
      settled = true
      clearTimeout(timer)
      const port = Number(match[2])
      // Drain further output so the pipe never fills and blocks the process.
      child.stdout?.resume()
      child.stderr?.resume()
      resolve({
        chainId: parameters.chainId,
        host,
        port,
        rpcUrl: `http://${host}:${port}`,
        process: child,
        get alive() {
          return alive
        },
        async stop() {
          if (!alive) return
          child.kill('SIGTERM')
          const timeout = setTimeout(() => child.kill('SIGKILL'), 3_000)
          await exited
          clearTimeout(timeout)
        },
      })
    }
    child.stdout?.on('data', onData)
    child.stderr?.on('data', onData)
    child.once('error', (error) => fail(`Could not run Anvil (${anvilBinaryPath()}): ${error.message}`))
    child.once('exit', (code, signal) =>
      fail(`Anvil for chain ${parameters.chainId} exited before listening (code ${code}, signal ${signal}).`),
    )
  })
}
