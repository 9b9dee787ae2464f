/**
 * Builds the image and says what it built: what `intent-devnet image` runs, in a process of its
 * own through tsx, so the CLI's bundle never contains the bundler (scripts/build.ts).
 *
 * @example
 * npx tsx scripts/image/buildImageCommand.ts --tag intent-devnet:dev --force
 */
import { BaseError } from '../../spec/BaseError'
import { buildImage } from './buildImage'

const tagIndex = process.argv.indexOf('--tag')
try {
  const started = performance.now()
  const { tag, size, built } = await buildImage({
    tag: tagIndex > 0 ? process.argv[tagIndex + 1] : undefined,
    force: process.argv.includes('--force'),
    log: (line) => console.log(line),
  })
  console.log(
    `${built ? 'built' : 'kept'} ${tag} (${(size / 1e6).toFixed(1)} MB) in ${((performance.now() - started) / 1000).toFixed(1)} s`,
  )
  console.log(`run it: docker run --rm --network host ${tag} up --port 4000`)
} catch (error) {
  console.error(error instanceof BaseError ? `error: ${error.message}` : error)
  process.exitCode = 1
}
