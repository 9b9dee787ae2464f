import { type Command, InvalidArgumentError, Option } from 'commander'
import type { Hex } from 'viem'
import { formatProgress, REPORTERS, type ReporterName, writeReports } from '../reporters'
import { replayPassed, replayRecording } from './replayRecording'

const collectKey = (value: string, previous: Record<string, Hex> = {}) => {
  const match = /^(0x[0-9a-fA-F]{40})=(0x[0-9a-fA-F]{64})$/.exec(value)
  if (!match?.[1] || !match[2]) throw new InvalidArgumentError('give ADDRESS=PRIVATE_KEY (both 0x hex)')
  return { ...previous, [match[1]]: match[2] as Hex }
}

/**
 * `intent-devnet replay FILE`: runs a recorded scenario against a simulator loaded with the
 * recorded chain state and clock, or against `--target`. Exit 0 when every step behaves as
 * recorded; otherwise the reporters say, step by step, what differs.
 */
export function register(program: Command): void {
  program
    .command('replay <file>')
    .description(
      'Replay a recorded scenario: against a simulator with the recorded chain state, or --target.',
    )
    .option('--target <url>', 'run against this target instead of a simulator started here')
    .option('--api-key <key>', 'x-api-key for the target (required with --target)')
    .option(
      '--key <address=key>',
      'private key of a signer that is not a devnet account (repeatable)',
      collectKey,
    )
    .addOption(
      new Option('--reporter <name...>', 'console, junit, json, html (repeatable)')
        .choices([...REPORTERS])
        .default(['console']),
    )
    .option('--out <dir>', 'where file reporters write', 'reports/replay')
    .option(
      '--timeout <seconds>',
      'time limit of the replay',
      (value) => {
        const seconds = Number(value)
        if (!(seconds > 0)) throw new InvalidArgumentError('must be a positive number of seconds')
        return seconds
      },
      180,
    )
    .action(async (file: string, options) => {
      if (options.target && !options.apiKey)
        throw new InvalidArgumentError('--api-key is required with --target')
      const reporters = [...new Set(options.reporter as ReporterName[])]
      const run = await replayRecording({
        file,
        target: options.target,
        apiKey: options.apiKey,
        keys: options.key,
        timeoutSeconds: options.timeout,
        onScenario: reporters.includes('console')
          ? (result, done, total) => console.log(formatProgress(result, done, total))
          : undefined,
      })
      for (const path of await writeReports(run, reporters, options.out)) console.error(`wrote ${path}`)
      const passed = replayPassed(run)
      const scenario = run.scenarios[0]
      if (!passed && scenario?.status === 'not-applicable')
        console.error(`the replay could not run: ${scenario.reason}`)
      console.error(
        passed ? 'replay: every step behaved as recorded' : 'replay: the target behaved differently',
      )
      process.exitCode = passed ? 0 : 1
    })
}
