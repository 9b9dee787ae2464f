/**
 * The options of a devnet start, stated once: `intent-devnet up`'s flags, `startSimulator`'s
 * parameters, the vitest and Jest setups' `intentDevnetOptions` and the testcontainers module's
 * `withX` methods are all derived from {@link START_OPTIONS} (a new option is added here and
 * nowhere else). Each option has its zod schema (what a value may be), its flag, and how a flag's
 * text becomes a value; unknown names are errors that list the valid ones.
 */
import { z } from 'zod'

/** The service's port unless told otherwise (`--port`) (DESIGN: `intent-devnet up`). */
export const DEFAULT_PORT = 4000
/** The host the service and the chains listen on unless told otherwise (`--host`) (DESIGN: `intent-devnet up`). */
export const DEFAULT_HOST = '127.0.0.1'
/** The API key the service accepts unless told otherwise (`--api-key`) (DESIGN: `intent-devnet up`). */
export const DEFAULT_API_KEY = 'devnet-key'
/** The chains a devnet runs unless told otherwise (`--chains`) (DESIGN: `intent-devnet up`). */
export const DEFAULT_CHAIN_IDS = [1, 10, 8453, 42161] as const
/** Ether each funded test account holds unless told otherwise (`--balance`) (DESIGN: `intent-devnet up`). */
export const DEFAULT_ACCOUNT_BALANCE_ETHER = 10_000
/** How many funded test accounts unless told otherwise (`--accounts`) (DESIGN: `intent-devnet up`). */
export const DEFAULT_ACCOUNT_COUNT = 10

const port = (name: string) =>
  z
    .number({ error: `${name} must be a port number` })
    .int(`${name} must be a whole number`)
    .min(0, `${name} must be 0..65535`)
    .max(65535, `${name} must be 0..65535`)
const whole = (name: string, min: number, unit: string) =>
  z
    .number({ error: `${name} must be a number of ${unit}` })
    .int(`${name} must be whole ${unit}`)
    .min(min, `${name} must be at least ${min} ${unit}`)

/** One option: its value's schema, its flag (with the value's name), and its help line. */
type OptionSpec<schema extends z.ZodType = z.ZodType> = {
  /** `--name <value>`, or `--name` alone for a switch. */
  flag: string
  description: string
  schema: schema
  /** A flag's text → a value for the schema (default: the text itself). */
  fromText?: (text: string, previous: unknown) => unknown
  /** A value → the flag's arguments (default: `[flag, String(value)]`; a switch: `[flag]` when true). */
  toArgs?: (flag: string, value: z.output<schema>) => string[]
  /** Repeatable on the command line (each use adds to the value). */
  repeatable?: boolean
}

const option = <schema extends z.ZodType>(spec: OptionSpec<schema>): OptionSpec<schema> => spec
const number = (text: string) => (text.trim() === '' ? Number.NaN : Number(text))

/**
 * Every option of a devnet start, by its name in `startSimulator`'s parameters and the setups'
 * options. The order is the order of `intent-devnet up --help`.
 *
 * @example
 * START_OPTIONS.rpcPort.flag // '--rpc-port <port>'
 */
export const START_OPTIONS = {
  port: option({
    flag: '--port <port>',
    description: `port the service listens on (0: any free port; default ${DEFAULT_PORT})`,
    schema: port('--port'),
    fromText: number,
  }),
  host: option({
    flag: '--host <host>',
    description: `host the service and the chains listen on (default ${DEFAULT_HOST})`,
    schema: z.string().min(1, '--host must not be empty'),
  }),
  apiKey: option({
    flag: '--api-key <key>',
    description: `API key callers must send in x-api-key (default ${DEFAULT_API_KEY})`,
    schema: z.string().min(1, '--api-key must not be empty'),
  }),
  strictVersion: option({
    flag: '--strict-version',
    description: 'reject requests without x-api-version (400) instead of serving them as alps',
    schema: z.boolean(),
  }),
  chainIds: option({
    flag: '--chains <ids>',
    description: `chain ids to run, separated by commas (default ${DEFAULT_CHAIN_IDS.join(',')})`,
    schema: z
      .array(whole('--chains', 1, 'chain ids'), { error: '--chains takes chain ids (e.g. 1,10,8453)' })
      .min(1, '--chains takes at least one chain id')
      .refine((ids) => new Set(ids).size === ids.length, '--chains names a chain twice'),
    fromText: (text) => text.split(',').map(number),
    toArgs: (flag, ids) => [flag, ids.join(',')],
  }),
  rpcPort: option({
    flag: '--rpc-port <port>',
    description: 'first chain listens on this port, the next on port + 1, … (0: free ports; default 0)',
    schema: port('--rpc-port'),
    fromText: number,
  }),
  mnemonic: option({
    flag: '--mnemonic <words>',
    description: 'BIP-39 mnemonic of every devnet key (default: Anvil’s test … junk)',
    schema: z.string().min(1, '--mnemonic must not be empty'),
  }),
  accountCount: option({
    flag: '--accounts <n>',
    description: `how many funded test accounts (default ${DEFAULT_ACCOUNT_COUNT})`,
    schema: whole('--accounts', 1, 'accounts').max(1000, '--accounts must be at most 1000'),
    fromText: number,
  }),
  balance: option({
    flag: '--balance <ether>',
    description: `ether of each funded test account (default ${DEFAULT_ACCOUNT_BALANCE_ETHER})`,
    schema: whole('--balance', 0, 'ether'),
    fromText: number,
  }),
  blockTime: option({
    flag: '--block-time <seconds>',
    description: 'mine a block every this many seconds too (default: only on each transaction)',
    schema: whole('--block-time', 1, 'seconds'),
    fromText: number,
  }),
  stateDir: option({
    flag: '--state-dir <dir>',
    description: "keep chain state and the service's durable data here across restarts",
    schema: z.string().min(1, '--state-dir must not be empty'),
  }),
  forks: option({
    flag: '--fork <chain=url>',
    description: 'fork that chain from an RPC URL (repeatable)',
    schema: z.record(z.string().regex(/^\d+$/, '--fork takes a chain id'), z.url('--fork takes an RPC URL')),
    repeatable: true,
    fromText: (text, previous) => {
      const match = text.match(/^(\d+)=(.+)$/)
      return { ...(previous as object), [match?.[1] ?? text]: match?.[2] ?? '' }
    },
    toArgs: (flag, forks) => Object.entries(forks).flatMap(([chainId, url]) => [flag, `${chainId}=${url}`]),
  }),
  quoteTtlSeconds: option({
    flag: '--quote-ttl <seconds>',
    description: 'lifetime of a blanc quote (default 300)',
    schema: whole('--quote-ttl', 1, 'seconds'),
    fromText: number,
  }),
  swapFeeBps: option({
    flag: '--swap-fee-bps <bps>',
    description: 'swap fee, in basis points of the value swapped (default 10)',
    schema: whole('--swap-fee-bps', 0, 'basis points').max(9999, '--swap-fee-bps must be at most 9999'),
    fromText: number,
  }),
  gasPrices: option({
    flag: '--gas-price <chain=gwei>',
    description:
      'gas price quotes charge on that chain, in gwei (repeatable; defaults: 1=10, 10=0.001, 8453=0.01, 42161=0.01)',
    schema: z.record(
      z.string().regex(/^\d+$/, '--gas-price takes a chain id'),
      z.string().regex(/^\d+(\.\d+)?$/, '--gas-price takes gwei as a decimal number (e.g. 8453=0.05)'),
    ),
    repeatable: true,
    fromText: (text, previous) => {
      const match = text.match(/^(\d+)=(.+)$/)
      if (!match)
        throw new Error(`--gas-price takes CHAIN=GWEI (e.g. 8453=0.05), got ${JSON.stringify(text)}`)
      return { ...(previous as object), [match[1]!]: match[2]! }
    },
    toArgs: (flag, prices) =>
      Object.entries(prices).flatMap(([chainId, gwei]) => [flag, `${chainId}=${gwei}`]),
  }),
  requestTimeoutMs: option({
    flag: '--request-timeout <ms>',
    description: 'time a request (headers and body) may take to arrive; later answers 408 (default 30000)',
    schema: whole('--request-timeout', 0, 'milliseconds'),
    fromText: number,
  }),
  manifestPath: option({
    flag: '--manifest <path>',
    description: 'write the devnet manifest (chains, contracts, accounts, keys) as JSON to this file',
    schema: z.string().min(1, '--manifest must not be empty'),
  }),
} as const

/** The name of one start option. */
export type StartOptionName = keyof typeof START_OPTIONS

/** A list option also takes a readonly list. */
type Accepting<value> = value extends (infer item)[] ? readonly item[] : value

/** Every start option, each optional: what `startSimulator` and the setups take. */
export type StartOptions = {
  -readonly [name in StartOptionName]?:
    | Accepting<z.output<(typeof START_OPTIONS)[name]['schema']>>
    | undefined
}

/** The options a setup that starts the devnet in a process of its own takes (it writes the manifest itself). */
export type DevnetProcessOptions = Omit<StartOptions, 'manifestPath'>

/** An unknown option name or a value an option does not take. */
export class StartOptionsError extends Error {
  override name = 'StartOptions.Error'
}

/** The names of every start option, for an error that lists them (DESIGN: `intent-devnet up`). */
export const START_OPTION_NAMES = Object.keys(START_OPTIONS) as StartOptionName[]

/**
 * Checks a start options object: every name is an option (else an error naming it and listing
 * the valid ones) and every value fits its schema. Options that are undefined are dropped.
 *
 * @example
 * parseStartOptions({ chainIds: [10], rpcPort: 8545 }) // { chainIds: [10], rpcPort: 8545 }
 * parseStartOptions({ chains: [10] }) // throws: unknown option "chains"; valid: port, host, …
 */
export function parseStartOptions(
  input: unknown,
  context: { names?: readonly StartOptionName[]; where?: string } = {},
): StartOptions {
  const names = context.names ?? START_OPTION_NAMES
  const where = context.where ?? 'intent-devnet'
  if (input === undefined || input === null) return {}
  if (typeof input !== 'object' || Array.isArray(input))
    throw new StartOptionsError(`${where} options must be an object, got ${JSON.stringify(input)}.`)
  const out: Record<string, unknown> = {}
  for (const [name, value] of Object.entries(input)) {
    if (!(names as readonly string[]).includes(name))
      throw new StartOptionsError(
        `Unknown option "${name}" for ${where}. Valid options: ${names.join(', ')}.`,
      )
    if (value === undefined) continue
    const parsed = START_OPTIONS[name as StartOptionName].schema.safeParse(value)
    if (!parsed.success)
      throw new StartOptionsError(
        `Option ${name} of ${where}: ${parsed.error.issues.map((issue) => issue.message).join('; ')} (got ${JSON.stringify(value)}).`,
      )
    out[name] = parsed.data
  }
  return out as StartOptions
}

/**
 * The `intent-devnet up` arguments that start a devnet with these options (checked first).
 *
 * @example
 * startOptionArgs({ chainIds: [10, 8453], strictVersion: true }) // ['--chains', '10,8453', '--strict-version']
 */
export function startOptionArgs(options: StartOptions): string[] {
  const checked = parseStartOptions(options)
  return START_OPTION_NAMES.flatMap((name) => {
    const value = checked[name]
    if (value === undefined || value === false) return []
    const spec = START_OPTIONS[name] as OptionSpec
    const flag = spec.flag.split(' ')[0]!
    if (value === true) return [flag]
    return spec.toArgs ? spec.toArgs(flag, value) : [flag, String(value)]
  })
}

/**
 * Turns one flag's text into the option's value, checked by its schema (the CLI's parser).
 * `previous`: the value so far, for a repeatable flag.
 *
 * @example
 * parseStartOptionText('rpcPort', '8545') // 8545
 */
export function parseStartOptionText(name: StartOptionName, text: string, previous?: unknown): unknown {
  const spec = START_OPTIONS[name] as OptionSpec
  const value = spec.fromText ? spec.fromText(text, previous) : text
  const parsed = spec.schema.safeParse(value)
  if (!parsed.success)
    throw new StartOptionsError(
      `${spec.flag.split(' ')[0]}: ${parsed.error.issues.map((issue) => issue.message).join('; ')}, got ${JSON.stringify(text)}`,
    )
  return parsed.data
}
