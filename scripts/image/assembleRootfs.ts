import { execFileSync } from 'node:child_process'
import {
  chmodSync,
  copyFileSync,
  cpSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  realpathSync,
  statSync,
} from 'node:fs'
import { dirname, join, relative } from 'node:path'
import { BaseError } from '../../spec/BaseError'

export class RootfsError extends BaseError {
  override name = 'Image.RootfsError'
}

/** Where things sit inside the image. */
export const IMAGE_PATHS = {
  node: '/usr/local/bin/node',
  init: '/sbin/tini',
  app: '/app',
} as const

/**
 * Programs the service spawns besides Anvil, copied when this machine has them: the devnet
 * starts each Anvil through `sh` (to learn its process id) under `setpriv --pdeathsig` (so it
 * dies with the service).
 */
const RUNTIME_TOOLS = [
  { target: '/bin/sh', candidates: ['/bin/sh'], required: true },
  { target: '/usr/bin/setpriv', candidates: ['/usr/bin/setpriv', '/bin/setpriv'], required: false },
]

/** The source folders the bundle is built from (their non-TypeScript files go into the image). */
const SOURCE_FOLDERS = ['simulator', 'conformance']

/** Where a machine keeps its CA certificates as one PEM bundle (Debian, then Fedora). */
const CA_BUNDLES = ['/etc/ssl/certs/ca-certificates.crt', '/etc/pki/tls/certs/ca-bundle.crt']

/** Places a static `tini` may be found on a machine with a Docker engine (docker.io ships it). */
const TINI_CANDIDATES = ['/usr/bin/tini-static', '/usr/bin/docker-init', '/usr/libexec/docker/docker-init']

/** Parameters of {@link assembleRootfs}. */
export type AssembleRootfsParameters = {
  /** The project's root: package.json, scenarios/ and node_modules/ are read from here. */
  root: string
  /** An empty folder that becomes `/` of the image. */
  rootfs: string
  /** Packages (names or `@scope/*`) to copy into /app/node_modules with their dependencies. */
  packages: readonly string[]
  /** The Node binary to ship (default: the one running this). */
  nodeBinary?: string | undefined
}

/** What {@link assembleRootfs} returns. */
export type AssembleRootfsReturnType = {
  /** The init that runs as PID 1 and forwards signals (a static tini). */
  init: string
  /** Shared libraries copied, as ldd resolved them. */
  libraries: string[]
  /** Packages copied into /app/node_modules, relative to node_modules. */
  packages: string[]
}

/** The shared libraries an ELF file needs, and its interpreter, as `ldd` resolves them. */
function sharedLibraries(file: string): string[] {
  let out: string
  try {
    out = execFileSync('ldd', [file], { encoding: 'utf8' })
  } catch {
    return [] // static, or not an ELF file for this machine (another platform's prebuild)
  }
  const found: string[] = []
  for (const line of out.split('\n')) {
    if (/not found/.test(line)) {
      // A musl or other-libc variant of an addon: the loader picks the glibc one beside it.
      if (/musl/.test(file)) continue
      throw new RootfsError(`${file} needs a library this machine lacks: ${line.trim()}`)
    }
    const match = line.match(/=>\s+(\/\S+)/) ?? line.match(/^\s*(\/\S+)\s+\(/)
    if (match) found.push(match[1]!)
  }
  return found
}

/** Copies a file to the same path under the rootfs, following symlinks; strips ELF binaries when `strip` exists. */
function place(rootfs: string, source: string, target = source, strip = false) {
  const destination = join(rootfs, target)
  mkdirSync(dirname(destination), { recursive: true })
  copyFileSync(source, destination)
  chmodSync(destination, statSync(source).mode & 0o777)
  if (strip) tryStrip(destination)
}

/** Drops an ELF binary's symbols in place; without binutils it ships as is (bigger, same behaviour). */
function tryStrip(file: string) {
  try {
    execFileSync('strip', [file], { stdio: 'ignore' })
  } catch {
    // No `strip` here: keep the symbols.
  }
}

/** The folder of an installed package, looked up as Node does from `from` upwards. */
function packageDir(name: string, from: string): string | undefined {
  for (let dir = from; ; dir = dirname(dir)) {
    const candidate = join(dir, 'node_modules', name)
    if (existsSync(join(candidate, 'package.json'))) return candidate
    if (dir === dirname(dir)) return undefined
  }
}

/**
 * Where an installed package goes under the image's node_modules: its path below the deepest
 * `node_modules` of the project or of a folder above it (where an installed intent-devnet
 * finds its hoisted dependencies), so nested copies stay nested.
 */
function targetOf(dir: string, root: string): string {
  for (let base = root; ; base = dirname(base)) {
    const prefix = `${join(base, 'node_modules')}/`
    if (dir.startsWith(prefix)) return dir.slice(prefix.length)
    if (base === dirname(base)) throw new RootfsError(`${dir} is not in a node_modules of ${root} or above.`)
  }
}

/** Expands `@scope/*` to the scope's installed packages (in the nearest node_modules that has the scope). */
function expand(name: string, root: string): string[] {
  if (!name.endsWith('/*')) return [name]
  const scope = name.slice(0, -2)
  for (let dir = root; ; dir = dirname(dir)) {
    const candidate = join(dir, 'node_modules', scope)
    if (existsSync(candidate)) return readdirSync(candidate).map((entry) => `${scope}/${entry}`)
    if (dir === dirname(dir)) throw new RootfsError(`No ${scope} packages are installed.`)
  }
}

/** Every installed package `names` need at run time (dependencies and installed optional ones). */
function dependencyClosure(names: readonly string[], root: string): { dir: string; target: string }[] {
  const seen = new Set<string>()
  const queue = names.flatMap((name) => expand(name, root)).map((name) => ({ name, from: root }))
  while (queue.length > 0) {
    const { name, from } = queue.shift()!
    const dir = packageDir(name, from)
    if (!dir) throw new RootfsError(`Package ${name} is not installed (needed from ${from}).`)
    if (seen.has(dir)) continue
    seen.add(dir)
    const pkg = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as {
      dependencies?: Record<string, string>
      optionalDependencies?: Record<string, string>
    }
    for (const dep of Object.keys(pkg.dependencies ?? {})) queue.push({ name: dep, from: dir })
    for (const dep of Object.keys(pkg.optionalDependencies ?? {}))
      if (packageDir(dep, dir)) queue.push({ name: dep, from: dir })
  }
  return [...seen].sort().map((dir) => ({ dir, target: targetOf(dir, root) }))
}

/** Files no package reads at run time: type declarations, source maps, Markdown. */
const skipped = /\.(md|map|d\.ts|d\.mts|d\.cts)$/i

/**
 * Lays out the image's root filesystem: this machine's Node binary and the shared libraries it
 * and every native file need (found with `ldd`), a static tini as PID 1, and under /app the
 * project's package.json, its scenario packs and the few packages the bundle keeps external.
 * The caller writes the bundle into `/app` and tars the folder for `docker import`.
 *
 * @example
 * assembleRootfs({ root: process.cwd(), rootfs: '/tmp/rootfs', packages: ['secp256k1'] })
 */
export function assembleRootfs(parameters: AssembleRootfsParameters): AssembleRootfsReturnType {
  const { root, rootfs } = parameters
  const nodeBinary = parameters.nodeBinary ?? process.execPath
  const init = TINI_CANDIDATES.find((candidate) => existsSync(candidate))
  if (!init)
    throw new RootfsError('No static tini on this machine to run as PID 1.', {
      details: `Looked for ${TINI_CANDIDATES.join(', ')}; install docker.io (it ships tini).`,
    })

  place(rootfs, nodeBinary, IMAGE_PATHS.node, true)
  place(rootfs, init, IMAGE_PATHS.init)
  const elfFiles = [nodeBinary]
  for (const tool of RUNTIME_TOOLS) {
    const found = tool.candidates.find((candidate) => existsSync(candidate))
    if (!found) {
      if (tool.required) throw new RootfsError(`This machine has no ${tool.target} to put in the image.`)
      continue
    }
    place(rootfs, realpathSync(found), tool.target)
    elfFiles.push(realpathSync(found))
  }
  mkdirSync(join(rootfs, 'tmp'), { recursive: true })
  chmodSync(join(rootfs, 'tmp'), 0o1777)
  for (const dir of ['etc', 'proc', 'sys', 'dev']) mkdirSync(join(rootfs, dir), { recursive: true })
  // Anvil will not even fork a plain-http URL without a CA bundle (its HTTP client loads one
  // at start); forks of https URLs need it anyway.
  const caBundle = CA_BUNDLES.find((candidate) => existsSync(candidate))
  if (!caBundle)
    throw new RootfsError('No CA certificate bundle on this machine for --fork.', {
      details: `Looked for ${CA_BUNDLES.join(', ')}; install ca-certificates.`,
    })
  place(rootfs, caBundle, '/etc/ssl/certs/ca-certificates.crt')

  const app = join(rootfs, IMAGE_PATHS.app)
  place(rootfs, join(root, 'package.json'), join(IMAGE_PATHS.app, 'package.json'))
  cpSync(join(root, 'scenarios'), join(app, 'scenarios'), { recursive: true, dereference: true })
  // Swagger UI's assets, which the bundle serves from there (scripts/swaggerUiAssets.ts).
  cpSync(join(root, 'dist', 'swagger-ui'), join(app, 'dist', 'swagger-ui'), { recursive: true })
  // Files our modules read beside themselves (the explorer's page and assets): everything in
  // the source folders that is not TypeScript, at the same paths (see sourceLocations in scripts/build.ts).
  // An installed package ships only the files of these folders the bundle reads at run time
  // (conformance/ not at all): copy what is there.
  for (const folder of SOURCE_FOLDERS.filter((name) => existsSync(join(root, name))))
    cpSync(join(root, folder), join(app, folder), {
      recursive: true,
      filter: (source) => statSync(source).isDirectory() || !source.endsWith('.ts'),
    })

  const packages = dependencyClosure(parameters.packages, root)
  for (const pkg of packages) {
    cpSync(pkg.dir, join(app, 'node_modules', pkg.target), {
      recursive: true,
      dereference: true,
      filter: (source) => {
        const rel = relative(pkg.dir, source)
        // Nested node_modules are copied as packages of their own when something needs them.
        if (rel.split('/')[0] === 'node_modules') return false
        if (skipped.test(rel)) return false
        // Another platform's prebuilt addon or binary is dead weight here.
        if (/prebuilds\/(?!linux-x64)/.test(rel) || /\.musl\.node$/.test(rel)) return false
        return true
      },
    })
  }
  // Native files in the copied packages: strip the big binaries, collect what they link.
  const walk = (dir: string): string[] =>
    readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
      entry.isDirectory() ? walk(join(dir, entry.name)) : [join(dir, entry.name)],
    )
  for (const file of walk(join(app, 'node_modules'))) {
    const head = readFileSync(file).subarray(0, 4)
    if (head.toString('latin1') !== '\x7fELF') continue
    if (!file.endsWith('.node')) tryStrip(file)
    elfFiles.push(file)
  }
  const libraries = [...new Set(elfFiles.flatMap(sharedLibraries))].sort()
  for (const library of libraries) place(rootfs, library)
  return { init, libraries, packages: packages.map((pkg) => pkg.target) }
}
