import { spawn } from 'node:child_process'
import { createHash } from 'node:crypto'
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, relative } from 'node:path'
import { isPackedInstall } from '../../simulator/devnet/bootStateFiles.js'
import { BaseError } from '../../spec/BaseError'
import { assembleRootfs, IMAGE_PATHS } from './assembleRootfs'

export class DockerError extends BaseError {
  override name = 'Image.DockerError'
}

/** scripts/build.ts OUT_DIR: the folder of the CLI's bundle under the root (and under /app). */
const OUT_DIR = 'dist'
/** Where the CLI's bundle sits under /app: where scripts/build.ts puts it under the root. */
const BUNDLE_PATH = `${OUT_DIR}/intent-devnet.mjs`
/** scripts/build.ts EXTERNAL_PACKAGES less esbuild: what the bundle needs beside it in node_modules. */
const BUNDLE_EXTERNALS = ['@foundry-rs/*', 'secp256k1']

/** The label that records what an image was built from (see {@link ensureImage}). */
export const BUILD_LABEL = 'io.intent-devnet.build'

const projectRoot = join(import.meta.dirname, '..', '..')

/** `intent-devnet:<version of package.json>`. */
export function defaultImageTag(root = projectRoot): string {
  const { version } = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { version: string }
  return `intent-devnet:${version}`
}

/** Runs a command; resolves with its stdout, rejects with its stderr. `input` is piped to stdin. */
export function run(command: string, args: string[], input?: NodeJS.ReadableStream): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { stdio: [input ? 'pipe' : 'ignore', 'pipe', 'pipe'] })
    let out = ''
    let err = ''
    child.stdout?.on('data', (chunk) => {
      out += chunk
    })
    child.stderr?.on('data', (chunk) => {
      err += chunk
    })
    if (input && child.stdin) input.pipe(child.stdin)
    child.on('error', (error) =>
      reject(new DockerError(`Cannot run ${command}: ${error.message}`, { cause: error })),
    )
    child.on('close', (code) =>
      code === 0
        ? resolve(out.trim())
        : reject(
            new DockerError(`${command} ${args.join(' ')} exited with ${code}`, { details: err.trim() }),
          ),
    )
  })
}

/** The build label of an image, or undefined when no image has that tag. */
async function labelOf(tag: string): Promise<string | undefined> {
  try {
    const label = await run('docker', [
      'image',
      'inspect',
      tag,
      '--format',
      `{{ index .Config.Labels "${BUILD_LABEL}" }}`,
    ])
    return label === '<no value>' ? '' : label
  } catch {
    return undefined
  }
}

/** Hash of every file under `dir`, by path and content. */
function hashTree(dir: string, hash = createHash('sha256'), base = dir) {
  for (const entry of readdirSync(dir).sort()) {
    const path = join(dir, entry)
    if (statSync(path).isDirectory()) hashTree(path, hash, base)
    else hash.update(relative(base, path)).update(readFileSync(path))
  }
  return hash
}

/** Parameters of {@link buildImage}. */
export type BuildImageParameters = {
  /** Image tag (default `intent-devnet:<version>`). */
  tag?: string | undefined
  /** Project root (default: this checkout). */
  root?: string | undefined
  /** Rebuild even when an image with this tag was built from the same inputs. */
  force?: boolean | undefined
  log?: ((line: string) => void) | undefined
}

/** What {@link buildImage} returns. */
export type BuildImageReturnType = {
  tag: string
  /** False when an image built from the same inputs was already there. */
  built: boolean
  /** The image's size as the engine reports it, in bytes. */
  size: number
}

/**
 * Builds the `intent-devnet` image with the local Docker engine and no registry pulls: bundles
 * the CLI, lays out a root filesystem from this machine's Node and the few packages the bundle
 * keeps external, and `docker import`s it. An image already tagged and built from the same
 * inputs (bundle, scenarios, package.json, Node binary) is kept, so CI builds it once.
 *
 * @example
 * const { tag } = await buildImage()
 * // docker run --rm --network host intent-devnet:0.1.0 up --port 4000
 */
export async function buildImage(parameters: BuildImageParameters = {}): Promise<BuildImageReturnType> {
  const root = parameters.root ?? projectRoot
  const tag = parameters.tag ?? defaultImageTag(root)
  const log = parameters.log ?? (() => {})
  const work = mkdtempSync(join(tmpdir(), 'intent-devnet-image-'))
  try {
    const rootfs = join(work, 'rootfs')
    // The CLI's bundle (scripts/build.ts, the one the bin runs), rebuilt when stale in a
    // checkout (an installed package's came built), then copied to the same place under /app
    // so its paths to the source tree hold there too.
    if (!isPackedInstall(root)) {
      // A specifier esbuild cannot follow: the package's dist/image.mjs must not bundle the build
      // (it imports esbuild, a build tool an installed package does not have); only a checkout gets here.
      const buildModule = '../build'
      const { buildBundle, staleReason } = (await import(buildModule)) as typeof import('../build')
      if (staleReason('intent-devnet', root)) await buildBundle('intent-devnet', root)
    }
    const content = readFileSync(join(root, BUNDLE_PATH))
    mkdirSync(join(rootfs, IMAGE_PATHS.app, OUT_DIR), { recursive: true })
    writeFileSync(join(rootfs, IMAGE_PATHS.app, BUNDLE_PATH), content)
    const bundle = { bytes: content.length, sha256: createHash('sha256').update(content).digest('hex') }
    const inputs = hashTree(join(root, 'scenarios'))
      .update(bundle.sha256)
      .update(readFileSync(join(root, 'package.json')))
      .update(`${process.version} ${statSync(process.execPath).size}`)
      .digest('hex')
      .slice(0, 32)
    if (!parameters.force && (await labelOf(tag)) === inputs) {
      log(`${tag} is current (built from the same inputs)`)
      return {
        tag,
        built: false,
        size: Number(await run('docker', ['image', 'inspect', tag, '--format', '{{.Size}}'])),
      }
    }
    log(`the CLI's bundle: ${(bundle.bytes / 1e6).toFixed(1)} MB`)
    // esbuild stays out: only `intent-devnet image` loads it, and the image builds no images.
    const packages = BUNDLE_EXTERNALS
    const layout = assembleRootfs({ root, rootfs, packages })
    log(
      `root filesystem: node, ${layout.libraries.length} shared libraries, tini, ${layout.packages.length} packages`,
    )
    const tar = spawn('tar', ['-C', rootfs, '--owner=0', '--group=0', '-c', '.'], {
      stdio: ['ignore', 'pipe', 'inherit'],
    })
    const previous = await run('docker', ['image', 'inspect', tag, '--format', '{{.Id}}']).catch(
      () => undefined,
    )
    const entrypoint = JSON.stringify([
      IMAGE_PATHS.init,
      '--',
      IMAGE_PATHS.node,
      `${IMAGE_PATHS.app}/${BUNDLE_PATH}`,
    ])
    await run(
      'docker',
      [
        'import',
        '--change',
        `ENTRYPOINT ${entrypoint}`,
        '--change',
        'CMD ["up"]',
        '--change',
        `WORKDIR ${IMAGE_PATHS.app}`,
        '--change',
        'ENV PATH=/usr/local/bin:/usr/bin:/bin HOME=/tmp',
        '--change',
        `LABEL ${BUILD_LABEL}=${inputs}`,
        '-',
        tag,
      ],
      tar.stdout,
    )
    // The image this tag named before is garbage now (unless a container still uses it).
    if (previous) await run('docker', ['image', 'rm', previous]).catch(() => undefined)
    const size = Number(await run('docker', ['image', 'inspect', tag, '--format', '{{.Size}}']))
    log(`built ${tag}: ${(size / 1e6).toFixed(1)} MB`)
    return { tag, built: true, size }
  } finally {
    rmSync(work, { recursive: true, force: true })
  }
}

/**
 * The image for tests: builds it unless one built from the current inputs is already tagged.
 *
 * @example
 * const tag = await ensureImage()
 */
export async function ensureImage(parameters: Omit<BuildImageParameters, 'force'> = {}): Promise<string> {
  // Test files run in parallel workers: one builds, the others wait and then find it current.
  const lock = join(
    tmpdir(),
    `${(parameters.tag ?? defaultImageTag(parameters.root)).replace(/\W/g, '_')}.lock`,
  )
  const deadline = Date.now() + 300_000
  for (;;) {
    try {
      mkdirSync(lock)
      break
    } catch {
      // A lock older than the deadline is from a build that died: take it over.
      if (
        Date.now() > deadline ||
        Date.now() - (statSync(lock, { throwIfNoEntry: false })?.mtimeMs ?? Date.now()) > 300_000
      ) {
        rmSync(lock, { recursive: true, force: true })
        continue
      }
      await new Promise((resolve) => setTimeout(resolve, 250))
    }
  }
  try {
    return (await buildImage(parameters)).tag
  } finally {
    rmSync(lock, { recursive: true, force: true })
  }
}
