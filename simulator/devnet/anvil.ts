import { existsSync } from 'node:fs'
import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'
import { createAnvil } from '@viem/anvil'
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
  /** `--dump-state PATH`: Anvil writes its whole state there when it exits on a signal. */
  dumpStatePath?: string | undefined
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
  /** The Anvil process's id. */
  pid: number
  /** Sends a signal to the process (tests use it to kill a chain). */
  kill(signal?: NodeJS.Signals): void
  /** Resolves once the process has exited (SIGTERM, then SIGKILL after 10 s). */
  stop: () => Promise<void>
  /** True until the process exits. */
  readonly alive: boolean
  /** Resolves when the process exits, however it exits. */
  readonly exited: Promise<void>
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

/** util-linux's `setpriv`, which can set a parent-death signal before it runs Anvil. */
const SETPRIV = ['/usr/bin/setpriv', '/bin/setpriv'].find((path) => existsSync(path))

/** Every Anvil this process started and has not seen exit. */
const running = new Map<number, () => void>()
let exitHookInstalled = false
function installExitHook() {
  if (exitHookInstalled) return
  exitHookInstalled = true
  // A last resort when the process exits without stopping its chains ('exit' handlers must be
  // synchronous). SIGTERM, not SIGKILL: Anvil then writes its --dump-state before it goes.
  process.on('exit', () => {
    for (const kill of running.values()) kill()
  })
}

/**
 * Starts one Anvil process through `@viem/anvil`'s `createAnvil` and resolves once it listens.
 *
 * What `@viem/anvil` lacks, and is added here through its `execArgs` hook:
 * - the Anvil runs in its own process group (`detached`), so Ctrl-C in a terminal (SIGINT to the
 *   foreground group) reaches only the service, which saves state before it stops the chains;
 * - on Linux it runs under `setpriv --pdeathsig SIGTERM`, so it dies with the service however the
 *   service dies (`kill -9` included): no orphan Anvils, and Anvil's `--dump-state` is written;
 * - a `sh` wrapper prints the process id before `exec`ing (createAnvil does not expose it), for
 *   the state dir's record of which Anvils may still be writing;
 * - the real port when started on port 0 (createAnvil reports the port it was given);
 * - a stop that does not leave a timer behind (see `stop`).
 *
 * @example
 * const anvil = await startAnvil({ chainId: 10 })
 * // ... use anvil.rpcUrl
 * await anvil.stop()
 */
export async function startAnvil(parameters: StartAnvilParameters): Promise<AnvilInstance> {
  const host = parameters.host ?? '127.0.0.1'
  const startTimeout = parameters.startTimeoutMs ?? 15_000
  const extra: string[] = ['--hardfork', parameters.hardfork ?? 'prague']
  if (parameters.dumpStatePath) extra.push('--dump-state', parameters.dumpStatePath)
  if (parameters.args) extra.push(...parameters.args)
  const binary = anvilBinaryPath()
  const anvil = createAnvil({
    anvilBinary: binary,
    host,
    port: parameters.port ?? 0,
    chainId: parameters.chainId,
    forkUrl: parameters.forkUrl,
    forkBlockNumber: parameters.forkBlockNumber,
    blockTime: parameters.blockTime,
    startTimeout,
    stopTimeout: 10_000,
    execArgs: ([file, args, options]) => {
      const command = SETPRIV ? [SETPRIV, '--pdeathsig', 'TERM', '--', file] : [file]
      return [
        '/bin/sh',
        ['-c', 'echo "anvil-pid $$"; exec "$@"', 'anvil', ...command, ...args, ...extra],
        { ...options, detached: true },
      ]
    },
  })

  let output = ''
  let pid: number | undefined
  let port: number | undefined
  const stopListening = anvil.on('message', (message) => {
    output = `${output}${message}`.slice(-4000)
    pid ??= Number(output.match(/anvil-pid (\d+)/)?.[1]) || undefined
    const listening = output.match(/Listening on (?:[\d.]+|\[[^\]]+\]|[\w.-]+):(\d+)/)
    if (listening) port = Number(listening[1])
  })
  let alive = true
  let markExited!: () => void
  const exited = new Promise<void>((resolve) => {
    markExited = resolve
  })
  anvil.on('exit', () => {
    alive = false
    if (pid !== undefined) running.delete(pid)
    markExited()
  })

  installExitHook()
  try {
    await anvil.start()
  } catch (error) {
    stopListening()
    const message = (error as Error).message
    if (/address already in use/i.test(output))
      throw new AnvilStartError(
        `Port ${parameters.port} is already in use: cannot start Anvil for chain ${parameters.chainId}.`,
      )
    throw new AnvilStartError(
      /in time/.test(message)
        ? `Anvil for chain ${parameters.chainId} did not start within ${startTimeout} ms.`
        : `Anvil for chain ${parameters.chainId} exited before listening (${binary}).`,
      { details: output.trim().slice(-2000) || message },
    )
  }
  stopListening()
  if (pid === undefined || port === undefined) {
    await anvil.stop().catch(() => {})
    throw new AnvilStartError(
      `Anvil for chain ${parameters.chainId} started but did not say its port or id.`,
      {
        details: output.trim().slice(-2000),
      },
    )
  }
  const processId = pid
  const kill = (signal: NodeJS.Signals = 'SIGTERM') => {
    try {
      process.kill(processId, signal)
    } catch {
      // Already gone.
    }
  }
  running.set(processId, () => kill('SIGTERM'))
  return {
    chainId: parameters.chainId,
    host,
    port,
    rpcUrl: `http://${host}:${port}`,
    pid: processId,
    kill,
    get alive() {
      return alive
    },
    exited,
    // Not createAnvil's stop(): it leaves its stop timeout (10 s) running after the process has
    // exited, which keeps a CLI from exiting for that long.
    async stop() {
      if (!alive) return
      kill('SIGTERM')
      const force = setTimeout(() => kill('SIGKILL'), 10_000)
      await exited
      clearTimeout(force)
    },
  }
}
