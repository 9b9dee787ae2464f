import { BaseError } from '../../spec/BaseError'
import {
  anvilBinaryPath,
  anvilCommand,
  EARLY_ANVILS,
  type EarlyAnvil,
  parseAnvilOutput,
} from './anvilProcess.js'

export { anvilBinaryPath }

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
  /** `--load-state PATH`: start from this dump (the baked boot state, bootStateFiles.js). */
  loadStatePath?: string | undefined
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
  if (parameters.loadStatePath) extra.push('--load-state', parameters.loadStatePath)
  if (parameters.args) extra.push(...parameters.args)
  const binary = anvilBinaryPath()
  // Loaded here, not with this module: `up` adopts the Anvils the bin started (adoptAnvil) and
  // seldom comes here, and @viem/anvil's index loads its proxy too (http-proxy, follow-redirects,
  // https, tls): ~20 ms of a bundled start (issue 18, BENCHMARKS.md "Fast start").
  const { createAnvil } = await import('@viem/anvil')
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
    execArgs: ([file, args, options]) => [
      ...anvilCommand(file, [...args, ...extra]),
      { ...options, detached: true },
    ],
  })

  let output = ''
  let pid: number | undefined
  let port: number | undefined
  const stopListening = anvil.on('message', (message) => {
    output = `${output}${message}`.slice(-4000)
    const parsed = parseAnvilOutput(output)
    pid ??= parsed.pid
    port = parsed.port ?? port
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
  return runningAnvil({ chainId: parameters.chainId, host, port, pid, exited, alive: () => alive })
}

/** The {@link AnvilInstance} of a started Anvil: kill and stop, and killed at exit if still running. */
function runningAnvil(parameters: {
  chainId: number
  host: string
  port: number
  pid: number
  exited: Promise<void>
  alive: () => boolean
}): AnvilInstance {
  const { chainId, host, port, pid: processId, exited, alive } = parameters
  const kill = (signal: NodeJS.Signals = 'SIGTERM') => {
    try {
      process.kill(processId, signal)
    } catch {
      // Already gone.
    }
  }
  installExitHook()
  if (alive()) running.set(processId, () => kill('SIGTERM'))
  void exited.then(() => running.delete(processId))
  return {
    chainId,
    host,
    port,
    rpcUrl: `http://${host}:${port}`,
    pid: processId,
    kill,
    get alive() {
      return alive()
    },
    exited,
    // Not createAnvil's stop(): it leaves its stop timeout (10 s) running after the process has
    // exited, which keeps a CLI from exiting for that long.
    async stop() {
      if (!alive()) return
      kill('SIGTERM')
      const force = setTimeout(() => kill('SIGKILL'), 10_000)
      await exited
      clearTimeout(force)
    },
  }
}

/** How startDevnet gets each chain's Anvil: {@link startAnvil}, or one that adopts early Anvils. */
export type AnvilLauncher = (parameters: StartAnvilParameters) => Promise<AnvilInstance>

/**
 * Makes an Anvil bin/intent-devnet.js started before the CLI loaded (anvilProcess.js
 * spawnEarlyAnvil: the launcher's command, own process group, free port) an {@link AnvilInstance}
 * once it listens, as {@link startAnvil} would have started it.
 */
export async function adoptAnvil(early: EarlyAnvil, startTimeoutMs = 15_000): Promise<AnvilInstance> {
  const { chainId, host, child } = early
  // From now on it keeps the process alive, as a started Anvil does.
  child.ref()
  ;(child.stdout as { ref?: () => void } | null)?.ref?.()
  ;(child.stderr as { ref?: () => void } | null)?.ref?.()
  const exited = new Promise<void>((resolve) => {
    if (early.exited) resolve()
    else child.once('exit', () => resolve())
  })
  const listening = await new Promise<{ pid: number; port: number } | undefined>((resolve) => {
    const timeout = setTimeout(() => resolve(undefined), startTimeoutMs)
    const check = () => {
      const { pid, port } = parseAnvilOutput(early.output)
      if (pid !== undefined && port !== undefined) {
        clearTimeout(timeout)
        early.onChange = () => {}
        resolve({ pid, port })
      } else if (early.exited) {
        clearTimeout(timeout)
        resolve(undefined)
      }
    }
    early.onChange = check
    check()
  })
  if (!listening) {
    child.kill('SIGKILL')
    throw new AnvilStartError(
      early.exited
        ? `Anvil for chain ${chainId} exited before listening (${anvilBinaryPath()}).`
        : `Anvil for chain ${chainId} did not start within ${startTimeoutMs} ms.`,
      { details: early.output.trim().slice(-2000) || undefined },
    )
  }
  return runningAnvil({
    chainId,
    host,
    port: listening.port,
    pid: listening.pid,
    exited,
    alive: () => child.exitCode === null && child.signalCode === null && !early.exited,
  })
}

/** What {@link earlyAnvilLauncher} returns. */
export type EarlyAnvilLauncher = {
  /** Adopts an early Anvil when one was started with exactly these parameters, else starts one. */
  launch: AnvilLauncher
  /** Stops the early Anvils nobody adopted (call once the devnet has its chains). */
  release(): void
}

/**
 * The Anvils bin/intent-devnet.js started before the CLI loaded (`intent-devnet up` without
 * flags that change how chains start), as a launcher for startDevnet; undefined when there are
 * none. Each is handed out once, only for the same chain on the same host, a free port, no fork,
 * no dump file, the same state loaded (the boot state, or none) and no other arguments; anything
 * else gets {@link startAnvil}.
 *
 * @example
 * const early = earlyAnvilLauncher()
 * try { await startDevnet({ launchAnvil: early?.launch }) } finally { early?.release() }
 */
export function earlyAnvilLauncher(): EarlyAnvilLauncher | undefined {
  const key = Symbol.for(EARLY_ANVILS)
  const registry = globalThis as { [key]?: EarlyAnvil[] }
  const unused = registry[key]
  if (!unused || unused.length === 0) return undefined
  delete registry[key]
  return {
    launch(parameters) {
      const plain =
        (parameters.port ?? 0) === 0 &&
        (parameters.hardfork ?? 'prague') === 'prague' &&
        parameters.forkUrl === undefined &&
        parameters.forkBlockNumber === undefined &&
        parameters.dumpStatePath === undefined &&
        parameters.blockTime === undefined &&
        (parameters.args?.length ?? 0) === 0
      const at = unused.findIndex(
        (early) =>
          plain &&
          early.chainId === parameters.chainId &&
          early.host === (parameters.host ?? '127.0.0.1') &&
          early.loadStatePath === parameters.loadStatePath,
      )
      if (at < 0) return startAnvil(parameters)
      const [early] = unused.splice(at, 1)
      return adoptAnvil(early!, parameters.startTimeoutMs)
    },
    release() {
      for (const early of unused.splice(0)) early.child.kill('SIGTERM')
    },
  }
}
