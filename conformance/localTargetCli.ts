import { type Command, InvalidArgumentError, Option } from 'commander'
import { type StartLocalTargetParameters, startLocalTarget } from './runner/startLocalTarget'

/** Set by bin/intent-devnet.js when it wants to hear that the command has started (its code cache). */
const STARTED = Symbol.for('intent-devnet.started')

/** The name of the hidden command (conformance/runner/startLocalTargetProcess.ts runs it). */
export const LOCAL_TARGET_COMMAND = 'local-target'

/**
 * The options the parent hands over (`--options-json`): those of {@link startLocalTarget},
 * checked here, since the child trusts nothing it is given.
 */
function parseOptions(text: string): StartLocalTargetParameters {
  let value: unknown
  try {
    value = JSON.parse(text)
  } catch (error) {
    throw new InvalidArgumentError(`not JSON: ${(error as Error).message}`)
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    throw new InvalidArgumentError('must be a JSON object')
  const { apiKey, strictVersion, chainIds, extraKeys, ...unknown } = value as Record<string, unknown>
  const names = Object.keys(unknown)
  if (names.length > 0)
    throw new InvalidArgumentError(
      `unknown option ${names.join(', ')}; valid: apiKey, strictVersion, chainIds, extraKeys`,
    )
  if (apiKey !== undefined && (typeof apiKey !== 'string' || apiKey === ''))
    throw new InvalidArgumentError('apiKey must be a non-empty string')
  if (strictVersion !== undefined && typeof strictVersion !== 'boolean')
    throw new InvalidArgumentError('strictVersion must be true or false')
  if (
    chainIds !== undefined &&
    (!Array.isArray(chainIds) ||
      chainIds.length === 0 ||
      !chainIds.every((id) => Number.isSafeInteger(id) && id > 0))
  )
    throw new InvalidArgumentError('chainIds must be a non-empty list of chain ids')
  if (extraKeys !== undefined && !(Number.isSafeInteger(extraKeys) && (extraKeys as number) >= 0))
    throw new InvalidArgumentError('extraKeys must be a whole number')
  return {
    apiKey: apiKey as string | undefined,
    strictVersion: strictVersion as boolean | undefined,
    chainIds: chainIds as number[] | undefined,
    extraKeys: extraKeys as number | undefined,
  }
}

/**
 * `intent-devnet local-target` (hidden): the simulator a `conformance` or `fuzz` run without
 * `--target` judges, in a process of its own ({@link startLocalTarget}, the same as in process),
 * so that the runner and the simulator each have a core. It prints one JSON line, `{ target,
 * apiKey, apiKeys }`, once it serves, and stops on SIGTERM or SIGINT, or when its stdin ends
 * (the parent is gone, however it ended).
 */
export function register(program: Command): void {
  program
    .command(LOCAL_TARGET_COMMAND, { hidden: true })
    .description('Start the simulator a conformance or fuzz run judges, and print its URL and keys as JSON.')
    .addOption(
      new Option('--options-json <json>', "startLocalTarget's parameters as a JSON object").argParser(
        parseOptions,
      ),
    )
    .action(async (options: { optionsJson?: StartLocalTargetParameters }) => {
      const local = await startLocalTarget(options.optionsJson ?? {})
      process.stdout.write(
        `${JSON.stringify({ target: local.target, apiKey: local.apiKey, apiKeys: local.apiKeys })}\n`,
      )
      ;(globalThis as { [STARTED]?: () => void })[STARTED]?.()
      await new Promise<void>((resolve) => {
        let stopping = false
        const stop = () => {
          if (stopping) return
          stopping = true
          local.stop().then(resolve, (error) => {
            console.error(error)
            process.exitCode = 1
            resolve()
          })
        }
        process.once('SIGINT', stop)
        process.once('SIGTERM', stop)
        if (!process.stdin.isTTY) {
          process.stdin.once('end', stop)
          process.stdin.once('close', stop)
          process.stdin.resume()
        }
      })
      process.stdin.destroy()
      // Stopped, its Anvils gone: nothing is left to do, and the parent waits for this exit.
      // Leaving by the event loop's end would tear down the heap first (~20-40 ms after a run).
      process.exit()
    })
}
