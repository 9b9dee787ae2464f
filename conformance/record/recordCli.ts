import { type Command, InvalidArgumentError } from 'commander'
import { onStopSignal } from './onStopSignal'
import { readRecording } from './readRecording'
import { clockOf, DEFAULT_RECORD_PORT, RecorderError, startRecorder } from './startRecorder'
import { writeRecording } from './writeRecording'

/** The journal `record` keeps beside its output until the scenario is written. */
export const journalOf = (file: string) => `${file}.journal`

/**
 * `intent-devnet record`: a recording proxy in front of a target. Ctrl-C, SIGTERM (to it or to
 * the `npx` that runs it) or `POST /_record/stop` on the proxy writes the scenario file and
 * prints what it holds. Every
 * event is appended to `FILE.journal` as it happens, so a recorder that is killed still leaves
 * its recording: `record --from-journal FILE.journal --out FILE` writes it.
 */
export function register(program: Command): void {
  program
    .command('record')
    .description(
      'Record a session through a proxy in front of any target, and write it as a replayable scenario.',
    )
    .option('--target <url>', 'base URL of the target (the simulator, a vendor, the public service)')
    .option('--api-key <key>', 'the x-api-key the client uses (never written)')
    .requiredOption('--out <file>', 'the scenario file to write (FILE.state/ beside it holds chain state)')
    .option(
      '--from-journal <journal>',
      'write the scenario from the journal a killed recorder left (FILE.journal), then exit',
    )
    .option(
      '--port <port>',
      'port of the proxy',
      (value) => {
        const port = Number(value)
        if (!Number.isInteger(port) || port < 0 || port > 65535) throw new InvalidArgumentError('not a port')
        return port
      },
      DEFAULT_RECORD_PORT,
    )
    .option('--host <host>', 'interface of the proxy', '127.0.0.1')
    .option('--chains <file>', 'chain RPC URLs (and funded keys) for a target without GET /_devnet/manifest')
    .option('--id <id>', 'the scenario id (default: recorded.<file name>)')
    .action(async (options) => {
      if (options.fromJournal) {
        const { recording, truncatedBytes } = await readRecording(options.fromJournal, {
          apiKey: options.apiKey,
        })
        if (truncatedBytes > 0)
          console.log(
            `the journal's last ${truncatedBytes} bytes are an event cut short by the kill; left out`,
          )
        console.log((await writeRecording(recording, options.out, { id: options.id })).summary)
        return
      }
      if (!options.target || !options.apiKey)
        throw new RecorderError('record needs --target and --api-key (or --from-journal).')
      let finish: (() => void) | undefined
      const finished = new Promise<void>((resolve) => {
        finish = resolve
      })
      let written: Promise<string> | undefined
      const write = () => {
        written ??= recorder
          .stop()
          .then((recording) => writeRecording(recording, options.out, { id: options.id }))
          .then((result) => result.summary)
        return written
      }
      const recorder = await startRecorder({
        target: options.target,
        apiKey: options.apiKey,
        port: options.port,
        host: options.host,
        chainsFile: options.chains,
        journal: journalOf(options.out),
        onStopRequest: async () => {
          // Answer first, then stop: the proxy closes once the stop request is answered.
          setImmediate(() => finish?.())
          return { out: options.out }
        },
      })
      const state = recorder.recording()
      console.log(`recording ${options.target} through ${recorder.url}`)
      for (const [chainId, url] of Object.entries(recorder.rpcUrls))
        console.log(`  chain ${chainId} RPC: ${url}`)
      console.log(
        state.chainState
          ? `  chain state and clock captured (${clockOf(state.chainState)})`
          : `  ${state.chainStateProblem}`,
      )
      if (state.faultsAtStart.length > 0)
        console.log(`  faults enabled on the target: ${state.faultsAtStart.join(', ')}`)
      console.log(
        'Ctrl-C, SIGTERM (to this process or to npx running it) or POST /_record/stop writes the recording.',
      )
      console.log(
        `  every exchange is appended to ${journalOf(options.out)} as it happens; if this process is killed,\n` +
          `  intent-devnet record --from-journal ${journalOf(options.out)} --out ${options.out} writes it`,
      )
      // Whichever process gets the signal: `npx` does not pass it on (onStopSignal.ts).
      const unwatch = onStopSignal((reason) => {
        if (!reason.startsWith('SIG')) console.log(`stopping: ${reason}`)
        finish?.()
      })
      await finished
      unwatch()
      console.log(await write())
    })
}
