import { spawn } from 'node:child_process'
import { existsSync } from 'node:fs'
import { join } from 'node:path'
import type { Command } from 'commander'

const root = join(import.meta.dirname, '..', '..')

/** Registers `intent-devnet image`: builds the container image with the local Docker engine (docs/ci.md). */
export function register(program: Command): void {
  program
    .command('image')
    .description(
      'Build the intent-devnet container image with the local Docker engine, no registry pulls (docs/ci.md).',
    )
    .option('--tag <name>', 'image tag (default intent-devnet:<version>)')
    .option('--force', 'rebuild even when an image built from the same inputs exists')
    .action(async (options: { tag?: string; force?: boolean }) => {
      // From the sources through tsx, in a child: the build bundles the CLI, so the CLI's own
      // bundle must not contain it (and the image, which builds no images, has no tsx).
      // An installed package has it built (dist/image.mjs, scripts/buildPackage.ts), no tsx.
      const built = join(root, 'dist/image.mjs')
      const args = existsSync(built)
        ? [built]
        : ['--import', 'tsx', join(root, 'scripts/image/buildImageCommand.ts')]
      if (options.tag) args.push('--tag', options.tag)
      if (options.force) args.push('--force')
      const child = spawn(process.execPath, args, { cwd: root, stdio: 'inherit' })
      const code = await new Promise<number | null>((resolve) => child.once('exit', resolve))
      process.exitCode = code ?? 1
    })
}
