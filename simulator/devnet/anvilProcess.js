// The part of the Anvil launcher that bin/intent-devnet.js also runs, before the CLI's bundle
// has loaded (issue 18): plain JavaScript, so the bin needs no loader or bundle to start Anvils
// exactly as startAnvil (anvil.ts) does. Types: anvilProcess.d.ts.
import { spawn } from 'node:child_process'
import { existsSync } from 'node:fs'
import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'

const require = createRequire(import.meta.url)

/** Path of the Anvil binary shipped by the `@foundry-rs/anvil` npm package (or $ANVIL_BINARY). */
export function anvilBinaryPath() {
  if (process.env.ANVIL_BINARY) return process.env.ANVIL_BINARY
  const platform = process.platform === 'win32' ? 'win32' : process.platform
  const arch = process.arch === 'x64' ? 'amd64' : process.arch
  const pkg = require.resolve(`@foundry-rs/anvil-${platform}-${arch}/package.json`)
  return join(dirname(pkg), 'bin', process.platform === 'win32' ? 'anvil.exe' : 'anvil')
}

/** util-linux's `setpriv`, which can set a parent-death signal before it runs Anvil. */
const SETPRIV = ['/usr/bin/setpriv', '/bin/setpriv'].find((path) => existsSync(path))

/**
 * The command that runs `file args` the way every Anvil of the devnet runs: a `sh` that prints
 * its process id (`anvil-pid N`) and `exec`s, on Linux through `setpriv --pdeathsig TERM` (the
 * Anvil dies with the service however the service dies). Spawn it `detached` (own process group).
 */
export function anvilCommand(file, args) {
  const command = SETPRIV ? [SETPRIV, '--pdeathsig', 'TERM', '--', file] : [file]
  return ['/bin/sh', ['-c', 'echo "anvil-pid $$"; exec "$@"', 'anvil', ...command, ...args]]
}

/** The process id and port in an Anvil's output so far (see {@link anvilCommand}). */
export function parseAnvilOutput(output) {
  const pid = Number(output.match(/anvil-pid (\d+)/)?.[1]) || undefined
  const listening = output.match(/Listening on (?:[\d.]+|\[[^\]]+\]|[\w.-]+):(\d+)/)
  return { pid, port: listening ? Number(listening[1]) : undefined }
}

/** Symbol.for key of the Anvils bin/intent-devnet.js started early (read by anvil.ts). */
export const EARLY_ANVILS = 'intent-devnet.earlyAnvils'

/**
 * Starts one Anvil on a free port with the launcher's command (and `--hardfork prague`, the
 * launcher's default; `--load-state` of the baked boot state when given) and watches it: its
 * output is read from the start (an Anvil whose pipe fills would block), and nothing of it keeps
 * the process alive until someone adopts it (anvil.ts adoptAnvil refs it again).
 */
export function spawnEarlyAnvil({ chainId, host, loadStatePath }) {
  const [file, args] = anvilCommand(anvilBinaryPath(), [
    '--host',
    host,
    '--port',
    '0',
    '--chain-id',
    String(chainId),
    '--hardfork',
    'prague',
    ...(loadStatePath ? ['--load-state', loadStatePath] : []),
  ])
  const child = spawn(file, args, { stdio: ['ignore', 'pipe', 'pipe'], detached: true })
  const early = {
    chainId,
    host,
    /** The state it was started from (`--load-state`), if any. */
    loadStatePath,
    child,
    /** The last 4000 characters it printed. */
    output: '',
    /** Set once it has exited (or could not be spawned). */
    exited: false,
    /** Called on every chunk of output and on exit (one listener: the adopter). */
    onChange: () => {},
  }
  const read = (chunk) => {
    early.output = `${early.output}${chunk}`.slice(-4000)
    early.onChange()
  }
  child.stdout.on('data', read)
  child.stderr.on('data', read)
  const exit = () => {
    early.exited = true
    early.onChange()
  }
  child.once('exit', exit)
  child.once('error', exit)
  child.unref()
  child.stdout.unref()
  child.stderr.unref()
  return early
}
