import { createRequire } from 'node:module'
import type { Command } from 'commander'
import { BaseError } from '../spec/BaseError'
import { ListingCommand } from './listingCommand'

/**
 * The `intent-devnet` CLI. Each subcommand lives in its own module and registers itself;
 * they are imported lazily so `intent-devnet conformance` does not load the simulator.
 */
const program = new ListingCommand()
  .name('intent-devnet')
  .description(
    'A local devnet of the cross-chain intent service, and a conformance suite for any implementation.',
  )
  .version(createRequire(import.meta.url)('../package.json').version, '-V, --version', 'print the version')
  .option('--verbose', 'print whole error chains')

const subcommands: Record<string, () => Promise<{ register: (program: Command) => void }>> = {
  up: () => import('./up'),
  conformance: () => import('../conformance/cli'),
  fuzz: () => import('../conformance/fuzz/cli'),
  // Hidden: the simulator a conformance or fuzz run without --target starts in a child process.
  'local-target': () => import('../conformance/localTargetCli'),
  record: () => import('../conformance/record/recordCli'),
  replay: () => import('../conformance/record/replayCli'),
  image: () => import('../scripts/image/imageCli'),
}

const wanted = process.argv[2]
for (const [name, load] of Object.entries(subcommands)) {
  // Only the named subcommand is loaded; `--help` loads them all to list them.
  if (wanted === name || wanted === undefined || wanted.startsWith('-') || !(wanted in subcommands)) {
    try {
      ;(await load()).register(program)
    } catch (error) {
      if (wanted === name) throw error
    }
  }
}

try {
  await program.parseAsync(process.argv)
} catch (error) {
  const verbose = program.opts().verbose === true
  if (error instanceof BaseError && !verbose) console.error(`error: ${error.shortMessage}`)
  else console.error(error)
  process.exitCode = process.exitCode || 1
}
