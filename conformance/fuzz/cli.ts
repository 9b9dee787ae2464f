import { type Command, InvalidArgumentError, Option } from 'commander'
import { parseShard } from '../runner/shard'
import { type FuzzProgress, runFuzz } from './runFuzz'

/** Exit code of a usage error (a bad option), as distinct from findings (1). */
const USAGE = 2

const positiveInteger = (what: string) => (value: string) => {
  const n = Number(value)
  if (!Number.isInteger(n) || n < 1) throw new InvalidArgumentError(`${what} must be a positive integer`)
  return n
}

/**
 * `intent-devnet fuzz`: generated tests against a target (or a simulator it starts). Exit code
 * 0 with no finding, 1 with findings, 2 on a usage error.
 */
export function register(program: Command): void {
  program
    .command('fuzz')
    .description(
      "Generate requests and sequences from the spec's schemas and model, find what breaks a property, and write each finding as a scenario.",
    )
    .option(
      '--target <url>',
      'base URL of the implementation under test (default: start a simulator in a child process)',
    )
    .option('--api-key <key>', 'x-api-key for the target (required with --target)')
    .option(
      '--seed <n>',
      'seed of the run: the same seed against the same target sends the same requests',
      (value) => {
        const n = Number(value)
        if (!Number.isSafeInteger(n)) throw new InvalidArgumentError('--seed must be an integer')
        return n
      },
    )
    .option(
      '--budget <requests>',
      'the most requests to send to the target, shrinking and sequences included (default 2000)',
      positiveInteger('--budget'),
    )
    .option('--duration <seconds>', 'run this long instead of to a budget', positiveInteger('--duration'))
    .option('--out <dir>', 'where report.json, junit.xml and findings/*.yaml go', 'reports/fuzz')
    .option('--chains <file>', 'chain RPC URLs (and funded keys) for a target without GET /_devnet/manifest')
    .option('--profile <profile>', "the target's paths: spec (default), public, or a YAML/JSON profile file")
    .addOption(new Option('--version <version>', 'fuzz only this API version').choices(['alps', 'blanc']))
    .option('--shard <i/n>', 'the i-th of n deterministic shards (routes and sequences)', (value) => {
      try {
        return parseShard(value)
      } catch (error) {
        throw new InvalidArgumentError((error as Error).message)
      }
    })
    .exitOverride((error) => {
      // Help and version are not errors; a bad option is a usage error (2), never "findings" (1).
      process.exit(error.exitCode === 0 ? 0 : USAGE)
    })
    .action(async (options, command: Command) => {
      if (options.target && !options.apiKey)
        command.error('error: --api-key is required with --target', { exitCode: USAGE })
      if (options.budget !== undefined && options.duration !== undefined)
        command.error('error: give --budget or --duration, not both', { exitCode: USAGE })
      const tty = process.stderr.isTTY === true
      const run = await runFuzz({
        target: options.target,
        // Without --target: the simulator in a child process, so the simulator has a core of its own.
        localTarget: process.argv[1] ? { bin: process.argv[1] } : 'in-process',
        apiKey: options.apiKey,
        seed: options.seed,
        budget: options.budget,
        durationSeconds: options.duration,
        out: options.out,
        chainsFile: options.chains,
        profile: options.profile,
        version: options.version,
        shard: options.shard,
        onProgress: tty ? (p) => process.stderr.write(`\r${progressLine(p)}\u001b[K`) : undefined,
      })
      if (tty) process.stderr.write('\n')
      const { report } = run
      const { requests } = report
      console.log(
        `fuzz seed ${report.seed}: ${requests.total} requests${requests.budget === null ? '' : ` of a budget of ${requests.budget}`} (${requests.stateless} generated at ${requests.statelessPerSecond}/s, ${requests.shrinking} shrinking, ${requests.stateful} in ${report.statefulSequences} sequences), ${run.findings.length} finding${run.findings.length === 1 ? '' : 's'}`,
      )
      for (const finding of report.findings)
        console.log(`  ✗ ${finding.property} on ${finding.route}: ${finding.title}\n      ${finding.file}`)
      for (const { route, reason } of report.routesLeftOut) console.log(`  - ${route} left out: ${reason}`)
      console.error(`wrote ${options.out}/report.json, ${options.out}/junit.xml`)
      if (run.findings.length > 0)
        console.error(
          `replay the findings: intent-devnet conformance --scenarios ${options.out}/findings${options.target ? ' --target … --api-key …' : ''}`,
        )
      process.exitCode = run.findings.length > 0 ? 1 : 0
    })
}

/** The progress line: phase, requests, findings, rate. */
export function progressLine(progress: FuzzProgress): string {
  return `fuzz ${progress.phase}: ${progress.requests} requests, ${progress.findings} finding${progress.findings === 1 ? '' : 's'}, ${Math.round(progress.perSecond)} req/s`
}
