import { readFile, writeFile } from 'node:fs/promises'
import { type Command, InvalidArgumentError, Option } from 'commander'
import {
  inPackOrder,
  REPORTERS,
  type ReporterName,
  renderScenariosAsTheyEnd,
  writeReports,
} from './reporters'
import { diffReports, formatDiff } from './reporters/diffReports'
import { writeBaseline } from './runner/baseline'
import { CHAINS_TEMPLATE } from './runner/chainsTemplate'
import { runConformance } from './runner/runConformance'
import { parseShard } from './runner/shard'

const collect = (value: string, previous: string[] = []) => [...previous, ...value.split(',').filter(Boolean)]

/**
 * `intent-devnet conformance`: runs scenario packs against a target (or a simulator it starts)
 * and reports check by check. Exit code 0 when every applicable check passes or fails only as
 * the baseline expects; 1 otherwise, including when a baseline entry now passes.
 */
export function register(program: Command): void {
  const conformance = program
    .command('conformance')
    .description(
      'Run the conformance scenario packs against a target and report where it departs from the spec.',
    )
    .option(
      '--target <url>',
      'base URL of the implementation under test (default: start a simulator in a child process)',
    )
    .option('--api-key <key>', 'x-api-key for the target (required with --target)')
    .option('--pack <name...>', 'scenario packs to run (default: all)', collect)
    .addOption(
      new Option('--version <version>', 'run only scenarios of this API version').choices(['alps', 'blanc']),
    )
    .addOption(
      new Option('--reporter <name...>', 'console, junit, json, html (repeatable)')
        .choices([...REPORTERS])
        .default(['console']),
    )
    .option('--out <dir>', 'where file reporters write', 'reports/conformance')
    .option('--baseline <file>', 'JSON file of checks the target is known to fail')
    .option('--write-baseline <file>', 'write the failures of this run as a baseline file')
    .option('--shard <i/n>', 'run the i-th of n deterministic shards of the scenarios', (value) => {
      try {
        return parseShard(value)
      } catch (error) {
        throw new InvalidArgumentError((error as Error).message)
      }
    })
    .option(
      '--timeout <seconds>',
      'time limit of each scenario',
      (value) => {
        const seconds = Number(value)
        if (!(seconds > 0)) throw new InvalidArgumentError('must be a positive number of seconds')
        return seconds
      },
      60,
    )
    .option('--chains <file>', 'chain RPC URLs (and funded keys) for a target without GET /_devnet/manifest')
    .option(
      '--chains-template [file]',
      'write a commented --chains file with every field (to the file, or stdout) and run nothing',
    )
    .option('--fail-fast', 'stop at the first scenario that fails (the others are reported not run)')
    .option(
      '--max-wait <seconds>',
      'longest real wait of a clock step on a target without the control API (else not applicable)',
      (value) => {
        const seconds = Number(value)
        if (!(seconds >= 0)) throw new InvalidArgumentError('must be a number of seconds')
        return seconds
      },
    )
    .option(
      '--webhook-url <url>',
      'base URL the target reaches the webhook receiver at (receiver on all interfaces)',
    )
    .option(
      '--webhook-host <host>',
      'host name the target reaches this machine by (receiver on all interfaces)',
    )
    .option(
      '--api-keys <keys>',
      'more keys of the target, for scenarios that set per-key state (one per shard)',
      collect,
    )
    .option(
      '--profile <profile>',
      "the target's paths: spec (default), public (POST /quotes, POST /intents, GET /intents/{id}) or a YAML/JSON profile file",
    )
    .option('--strict', 'SHOULD checks (public-service behaviour the spec is silent on) fail the run too')
    .option(
      '--concurrency <n>',
      'most scenarios in flight at once; those that could interfere never run side by side (default: 8)',
      (value) => {
        const n = Number(value)
        if (!Number.isInteger(n) || n < 1) throw new InvalidArgumentError('must be a positive integer')
        return n
      },
    )
    .option('--scenarios <dir>', 'scenario folder (default: the bundled scenarios/)')
    .action(async (options) => {
      if (options.chainsTemplate !== undefined) {
        if (typeof options.chainsTemplate === 'string') {
          await writeFile(options.chainsTemplate, CHAINS_TEMPLATE)
          console.error(`wrote ${options.chainsTemplate}`)
        } else process.stdout.write(CHAINS_TEMPLATE)
        return
      }
      if (options.target && !options.apiKey)
        throw new InvalidArgumentError('--api-key is required with --target')
      const reporters = [...new Set(options.reporter as ReporterName[])]
      const progress = reporters.includes('console') ? inPackOrder((line) => console.log(line)) : undefined
      // report.json's scenarios rendered as they end; not with a baseline (it marks checks after).
      const scenarios =
        reporters.includes('json') && options.baseline === undefined ? renderScenariosAsTheyEnd() : undefined
      const run = await runConformance({
        target: options.target,
        // Without --target: the simulator in a child process, so that it and the runner each have a core.
        localTarget: process.argv[1] ? { bin: process.argv[1] } : 'in-process',
        apiKey: options.apiKey,
        packs: options.pack,
        version: options.version,
        baseline: options.baseline,
        shard: options.shard,
        timeoutSeconds: options.timeout,
        chainsFile: options.chains,
        maxWaitSeconds: options.maxWait,
        strict: options.strict === true,
        concurrency: options.concurrency,
        profile: options.profile,
        apiKeys: options.apiKeys,
        webhookUrl: options.webhookUrl,
        webhookHost: options.webhookHost,
        scenariosDir: options.scenarios,
        failFast: options.failFast === true,
        onScenario:
          progress || scenarios
            ? (result, done, total, index) => {
                progress?.(result, done, total, index)
                scenarios?.add(result)
              }
            : undefined,
        // Written while the simulator stops.
        whileStopping: async (result) => {
          const written = await writeReports(result, reporters, options.out, undefined, scenarios?.rendered)
          for (const path of written) console.error(`wrote ${path}`)
        },
      })
      if (options.writeBaseline) await writeBaseline(options.writeBaseline, run.scenarios)
      process.exitCode = run.summary.unexpected > 0 ? 1 : 0
      exitWhenFlushed()
    })
  conformance
    .command('diff <a> <b>')
    .description(
      'Show what changed between two JSON reports (report.json): metadata and every check whose outcome moved.',
    )
    .action(async (a: string, b: string) => {
      const [before, after] = await Promise.all(
        [a, b].map(async (file) => JSON.parse(await readFile(file, 'utf8'))),
      )
      const diff = diffReports(before, after)
      console.log(formatDiff(diff))
      process.exitCode = diff.changes.length > 0 ? 1 : 0
    })
}

/**
 * Ends the process once stdout and stderr have taken everything written to them: the run is
 * over (its child and the Anvils are gone, its files written), and leaving by the event loop's
 * end would first tear down a heap the run filled (~20-40 ms).
 */
function exitWhenFlushed(): void {
  let pending = 2
  const done = () => {
    if (--pending === 0) process.exit()
  }
  process.stdout.write('', done)
  process.stderr.write('', done)
}
