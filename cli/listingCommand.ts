import { Command } from 'commander'

/**
 * A commander Command whose unknown-option error names the flag and lists every valid one of the
 * command (commander alone only suggests a near one), for every subcommand it creates too.
 *
 * @example
 * const program = new ListingCommand().name('intent-devnet')
 * // intent-devnet up --rpcport 1 → error: unknown option '--rpcport' for 'intent-devnet up'; valid options: --port, --host, …
 */
export class ListingCommand extends Command {
  override createCommand(name?: string): Command {
    return new ListingCommand(name)
  }

  /** Called by commander with the first flag it does not know. */
  unknownOption(flag: string): never {
    const valid: string[] = []
    for (let command: Command | null = this; command; command = command.parent)
      for (const option of command.options) if (!option.hidden) valid.push(option.long ?? option.short ?? '')
    const path: string[] = []
    for (let command: Command | null = this; command; command = command.parent) path.unshift(command.name())
    return this.error(
      `error: unknown option '${flag}' for '${path.join(' ')}'; valid options: ${[...new Set([...valid, '--help'])].filter(Boolean).join(', ')}`,
      { code: 'commander.unknownOption' },
    )
  }
}
