import { type Command, InvalidArgumentError, Option } from 'commander'
import {
  API_VERSIONS,
  parseStartOptions,
  parseStartOptionText,
  START_OPTION_NAMES,
  START_OPTIONS,
  type StartOptionName,
  type StartOptions,
} from '../spec'

/**
 * `up`'s flags, one per start option (spec/startOptions.ts): the flag, its help line
 * and its parser come from there; a bad value is commander's "invalid argument" error.
 */
const upOptions = () =>
  START_OPTION_NAMES.map((name) => {
    const spec = START_OPTIONS[name]
    const option = new Option(spec.flag, spec.description)
    if (spec.flag.includes('<'))
      option.argParser((text: string, previous: unknown) => {
        try {
          return parseStartOptionText(name, text, previous)
        } catch (error) {
          throw new InvalidArgumentError((error as Error).message)
        }
      })
    return { name, option }
  })

/** Set by bin/intent-devnet.js when it wants to hear that the command has started. */
const STARTED = Symbol.for('intent-devnet.started')

/** Registers `intent-devnet up`. */
export function register(program: Command): void {
  const command = program
    .command('up')
    .description(
      'Start the devnet (Anvil chains with our contracts) and the service; print its base URL and API key.',
    )
  const flags = upOptions()
  for (const { option } of flags) command.addOption(option)
  // The setups that start `up` in a child (integrations/devnetProcess.cjs) hand their options
  // object over as it is, checked here against the same list.
  command.addOption(
    new Option('--options-json <json>', 'start options as a JSON object (the test setups)')
      .hideHelp()
      .argParser((text: string) => {
        try {
          return parseStartOptions(JSON.parse(text), { where: 'intentDevnetOptions' })
        } catch (error) {
          throw new InvalidArgumentError((error as Error).message)
        }
      }),
  )
  command.action(async (parsed: Record<string, unknown>) => {
    // commander's attribute names (--chains → chains) back to the options' names.
    const options: StartOptions = { ...(parsed.optionsJson as StartOptions | undefined) }
    for (const { name, option } of flags) {
      const value = parsed[option.attributeName()]
      if (value !== undefined) (options as Record<StartOptionName, unknown>)[name] = value
    }
    // Loaded when the command runs, so `intent-devnet --help` does not load the simulator.
    // startSimulator adopts the Anvils bin/intent-devnet.js started before this code loaded.
    const { startSimulator } = await import('../simulator/index')
    const sim = await startSimulator({
      // Placed and funded at build time when the bake applies (simulator/devnet/bootState.ts);
      // INTENT_DEVNET_BOOT_STATE=0: placed and funded now, as before the bake.
      bootState: process.env.INTENT_DEVNET_BOOT_STATE !== '0',
      ...options,
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
      `  manifest:  ${sim.baseUrl}/_devnet/manifest${options.manifestPath ? ` (also ${options.manifestPath})` : ''}`,
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
