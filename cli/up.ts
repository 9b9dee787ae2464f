import type { Command } from 'commander'
import { DEFAULT_API_KEY, DEFAULT_HOST, DEFAULT_PORT } from '../simulator/http/startService'
import { API_VERSIONS } from '../spec'

const parsePort = (value: string): number => {
  const port = Number(value)
  if (!Number.isInteger(port) || port < 0 || port > 65535)
    throw new Error(`--port must be 0..65535, got ${value}`)
  return port
}

const parseChains = (value: string): number[] => {
  const ids = value.split(',').map((part) => Number(part.trim()))
  if (ids.length === 0 || ids.some((id) => !Number.isSafeInteger(id) || id <= 0))
    throw new Error(`--chains takes chain ids separated by commas (e.g. 1,10,8453), got ${value}`)
  return ids
}

const collectFork = (value: string, previous: Record<number, string>): Record<number, string> => {
  const match = value.match(/^(\d+)=(https?:\/\/.+)$/)
  if (!match) throw new Error(`--fork takes CHAIN=URL (e.g. 8453=http://127.0.0.1:8545), got ${value}`)
  return { ...previous, [Number(match[1])]: match[2]! }
}

// The gwei value is checked by startSimulator (createGasPrices) before any chain starts.
const collectGasPrice = (value: string, previous: Record<number, string>): Record<number, string> => {
  const match = value.match(/^(\d+)=(\S+)$/)
  if (!match) throw new Error(`--gas-price takes CHAIN=GWEI (e.g. 8453=0.05), got ${value}`)
  return { ...previous, [Number(match[1])]: match[2]! }
}

const parseSeconds = (value: string): number => {
  const seconds = Number(value)
  if (!Number.isSafeInteger(seconds) || seconds <= 0)
    throw new Error(`--quote-ttl must be whole seconds > 0, got ${value}`)
  return seconds
}

const parseBps = (value: string): number => {
  const bps = Number(value)
  if (!Number.isSafeInteger(bps) || bps < 0 || bps > 9999)
    throw new Error(`--swap-fee-bps must be a whole number of basis points from 0 to 9999, got ${value}`)
  return bps
}

const parseMilliseconds = (value: string): number => {
  const ms = Number(value)
  if (!Number.isSafeInteger(ms) || ms < 0)
    throw new Error(`--request-timeout must be whole milliseconds >= 0 (0: none), got ${value}`)
  return ms
}

/** Set by bin/intent-devnet.js when it wants to hear that the command has started. */
const STARTED = Symbol.for('intent-devnet.started')

type UpOptions = {
  port: number
  host: string
  apiKey: string
  strictVersion?: boolean
  chains?: number[]
  stateDir?: string
  fork: Record<number, string>
  quoteTtl?: number
  swapFeeBps?: number
  gasPrice: Record<number, string>
  manifest?: string
  requestTimeout?: number
}

/** Registers `intent-devnet up`. */
export function register(program: Command): void {
  program
    .command('up')
    .description(
      'Start the devnet (Anvil chains with our contracts) and the service; print its base URL and API key.',
    )
    .option('--port <port>', 'port to listen on (0: any free port)', parsePort, DEFAULT_PORT)
    .option('--host <host>', 'host to listen on', DEFAULT_HOST)
    .option('--api-key <key>', 'API key callers must send in x-api-key', DEFAULT_API_KEY)
    .option('--strict-version', 'reject requests without x-api-version (400) instead of serving them as alps')
    .option('--chains <ids>', 'chain ids to run, separated by commas (default 1,10,8453,42161)', parseChains)
    .option('--state-dir <dir>', "keep chain state and the service's durable data here across restarts")
    .option('--fork <chain=url>', 'fork that chain from an RPC URL (repeatable)', collectFork, {})
    .option(
      '--gas-price <chain=gwei>',
      'gas price quotes charge on that chain, in gwei (repeatable; defaults: 1=10, 10=0.001, 8453=0.01, 42161=0.01)',
      collectGasPrice,
      {},
    )
    .option('--quote-ttl <seconds>', 'lifetime of a blanc quote (default 300)', parseSeconds)
    .option('--swap-fee-bps <bps>', 'swap fee, in basis points of the value swapped (default 10)', parseBps)
    .option(
      '--request-timeout <ms>',
      'time a request (headers and body) may take to arrive; later answers 408 (default 30000)',
      parseMilliseconds,
    )
    .option(
      '--manifest <path>',
      'write the devnet manifest (chains, contracts, accounts, keys) as JSON to this file',
    )
    .action(async (options: UpOptions) => {
      // Loaded when the command runs, so `intent-devnet --help` does not load the simulator.
      // startSimulator adopts the Anvils bin/intent-devnet.js started before this code loaded.
      const { startSimulator } = await import('../simulator/index')
      const sim = await startSimulator({
        // Placed and funded at build time when the bake applies (simulator/devnet/bootState.ts);
        // INTENT_DEVNET_BOOT_STATE=0: placed and funded now, as before the bake.
        bootState: process.env.INTENT_DEVNET_BOOT_STATE !== '0',
        port: options.port,
        host: options.host,
        apiKey: options.apiKey,
        strictVersion: options.strictVersion === true,
        chainIds: options.chains,
        stateDir: options.stateDir,
        forks: options.fork,
        quoteTtlSeconds: options.quoteTtl,
        swapFeeBps: options.swapFeeBps,
        gasPrices: options.gasPrice,
        manifestPath: options.manifest,
        requestTimeoutMs: options.requestTimeout,
        // With a state dir, what the start found there (a crash before, state loaded, intents rewound).
        log: options.stateDir ? (line) => console.log(`  - ${line}`) : undefined,
      })
      const manifest = sim.manifest()
      console.log(`intent-devnet is up at ${sim.baseUrl}`)
      console.log(`  API key:   ${sim.apiKey} (header x-api-key)`)
      console.log(
        `  versions:  ${API_VERSIONS.join(', ')} (${options.strictVersion ? 'x-api-version required' : 'alps when x-api-version is missing'})`,
      )
      console.log(`  reference: ${sim.baseUrl}/docs  (OpenAPI: ${sim.baseUrl}/openapi.json)`)
      console.log(
        `  manifest:  ${sim.baseUrl}/_devnet/manifest${options.manifest ? ` (also ${options.manifest})` : ''}`,
      )
      console.log('  chains:')
      for (const chain of manifest.chains)
        console.log(
          `    ${String(chain.chainId).padEnd(6)} ${chain.name.padEnd(10)} ${chain.rpcUrl}  gas ${manifest.service.gasPrices?.[chain.chainId] ?? '?'} gwei${chain.forkUrl ? ` (fork of ${chain.forkUrl})` : ''}`,
        )
      console.log(
        `  signers:   server ${manifest.signers.server}, allocator ${manifest.signers.allocator}, relayer ${manifest.signers.relayer}`,
      )
      console.log('  funded accounts (address, private key):')
      for (const account of manifest.accounts.slice(0, 3))
        console.log(`    ${account.address} ${account.privateKey}`)
      if (manifest.accounts.length > 3)
        console.log(`    … ${manifest.accounts.length - 3} more in the manifest`)
        // The bin's code cache is written now, with what a start compiles (bin/intent-devnet.js).
      ;(globalThis as { [STARTED]?: () => void })[STARTED]?.()
      await new Promise<void>((resolve) => {
        const stop = (signal: NodeJS.Signals) => {
          console.log(`\n${signal}: stopping`)
          process.off('SIGINT', stop)
          process.off('SIGTERM', stop)
          sim.close().then(resolve, (error) => {
            console.error(error)
            process.exitCode = 1
            resolve()
          })
        }
        process.on('SIGINT', stop)
        process.on('SIGTERM', stop)
      })
    })
}
