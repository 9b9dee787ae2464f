/**
 * Bundles each entry point of the project into one ES module under `dist/` with esbuild, so
 * `bin/intent-devnet.js` starts without a TypeScript loader and without resolving hundreds of
 * files (issue 18). The bundle is never stale: beside each bundle a stamp records every source
 * file it was built from (size and mtime) and the bundle's own; the bin compares them before it
 * uses the bundle and rebuilds (or falls back to tsx) when anything differs.
 *
 * Runs at `npm install` (the `prepare` script) and by the bin on a stale or missing bundle.
 * After each build it bakes the devnet's boot state for that bundle (dist/devnet-state: the
 * chains as placement and funding leave them, simulator/devnet/bootState.ts), which `intent-devnet
 * up` starts its Anvils from instead of placing and funding, and the OpenAPI document
 * (dist/openapi.json, simulator/http/bakeOpenApi.ts); both fresh exactly when the bundle is.
 *
 * @example
 * npx tsx scripts/build.ts          # build every bundle
 * npx tsx scripts/build.ts --check  # exit 1 when a bundle is stale
 */
import { spawn } from 'node:child_process'
import { readFileSync, renameSync, statSync, writeFileSync } from 'node:fs'
import { mkdir, readFile } from 'node:fs/promises'
import { dirname, join, relative, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { Script } from 'node:vm'
import { build, type Plugin } from 'esbuild'
import { lazyBuiltins, requireExternals } from './bundlePlugins'
import { copySwaggerUiAssets, swaggerUiAssets } from './swaggerUiAssets'

/** The project's root (package.json, simulator/, conformance/). */
export const ROOT = resolve(fileURLToPath(new URL('..', import.meta.url)))

/** Folder of the bundles, relative to the root (ignored by git: built at install). */
export const OUT_DIR = 'dist'

/** Entry points: bundle name → source file. `bin/intent-devnet.js` runs `intent-devnet`. */
export const ENTRY_POINTS = { 'intent-devnet': 'cli/main.ts' } as const

/** Name of one bundle. */
export type BundleName = keyof typeof ENTRY_POINTS

/**
 * Packages the bundle leaves in node_modules: each finds files beside its own code at run time
 * (the Anvil binary, secp256k1's prebuilt addon, esbuild's binary for the `image` subcommand),
 * which a bundle would lose (Swagger UI's assets are copied instead: swaggerUiAssets.ts). Everything else (viem, zod, fastify, …) is
 * inlined and tree-shaken.
 */
export const EXTERNAL_PACKAGES = ['@foundry-rs/*', 'secp256k1', 'esbuild'] as const

/**
 * Files outside the module graph whose change must rebuild the bundle: the build itself, its
 * settings, and node_modules as a whole (npm rewrites its lock on every install).
 */
const EXTRA_INPUTS = ['scripts/build.ts', 'package.json', 'tsconfig.json', 'node_modules/.package-lock.json']

/** What the stamp beside a bundle holds. */
export type BuildStamp = {
  /** The bundle's size and mtime when the stamp was written (another build may replace it). */
  bundle: { size: number; mtimeMs: number }
  /** Every input, relative to the root: [path, size, mtimeMs]; a missing file is [path, -1, 0]. */
  inputs: [string, number, number][]
}

/** Path of a bundle, absolute. */
export function bundlePath(name: BundleName, root = ROOT): string {
  return join(root, OUT_DIR, `${name}.mjs`)
}

/** Path of a bundle's stamp, absolute. */
export function stampPath(name: BundleName, root = ROOT): string {
  return join(root, OUT_DIR, `${name}.stamp.json`)
}

const fileState = (root: string, path: string): [string, number, number] => {
  try {
    const stat = statSync(join(root, path))
    return [path, stat.size, stat.mtimeMs]
  } catch {
    return [path, -1, 0]
  }
}

/**
 * Why a bundle cannot be used as it is (missing, or a named input changed since it was built),
 * or undefined when it is fresh. The bin does the same check in plain JavaScript.
 *
 * @example
 * if (staleReason('intent-devnet')) await buildBundle('intent-devnet')
 */
export function staleReason(name: BundleName, root = ROOT): string | undefined {
  let stamp: BuildStamp
  try {
    stamp = JSON.parse(readFileSync(stampPath(name, root), 'utf8')) as BuildStamp
  } catch {
    return 'no bundle yet'
  }
  const bundle = fileState(root, relative(root, bundlePath(name, root)))
  if (bundle[1] !== stamp.bundle.size || bundle[2] !== stamp.bundle.mtimeMs) return 'bundle replaced'
  for (const [path, size, mtimeMs] of stamp.inputs) {
    const [, nowSize, nowMtime] = fileState(root, path)
    if (nowSize !== size || nowMtime !== mtimeMs) return `${path} changed`
  }
  return undefined
}

/**
 * Keeps `import.meta.url`, `.dirname` and `.filename` of each of our modules pointing where the
 * module sits in the source tree, not at the bundle: code that reads files beside itself (the
 * explorer's assets, the scenario packs, package.json, the Anvil package) still finds them.
 */
export function sourceLocations(root: string): Plugin {
  return {
    name: 'source-locations',
    setup(build) {
      build.onLoad({ filter: /\.ts$/ }, async (args) => {
        const file = relative(root, args.path)
        // Our modules only; the root itself is in a node_modules when the package is installed.
        if (file.startsWith('..') || file.includes('node_modules/')) return undefined
        const dir = dirname(file) === '.' ? '' : `${dirname(file)}/`
        const contents = (await readFile(args.path, 'utf8'))
          .replaceAll('import.meta.url', `new URL(${JSON.stringify(file)}, __rootUrl).href`)
          .replaceAll('import.meta.dirname', `__rootPath(${JSON.stringify(dir)})`)
          .replaceAll('import.meta.filename', `__rootPath(${JSON.stringify(file)})`)
        return { contents, loader: 'ts' }
      })
    },
  }
}

/**
 * The bundle is one ES module (the image runs it as `node dist/intent-devnet.mjs`), laid out so
 * the bin can also run it as a classic script with a V8 code cache (Node 20 has no
 * `module.enableCompileCache`; only `vm.Script` takes `cachedData`): an ES-module prelude of two
 * lines defines `require` and `__bundleUrl`, then `await`, {@link SCRIPT_BODY_MARKER} and the
 * body as one function expression, `(async function (require, __bundleUrl) {…})` (top-level
 * await stays legal), which the module calls on the line after its end ({@link SCRIPT_BODY_CALL}).
 * The body has no `import`, `export` or `import.meta` (externals and Node's modules are
 * `require`d, see {@link requireExternals}). The bin compiles that expression, a slice of the
 * file's text (no 6 MB copy), with its code cache and calls it; bin/intent-devnet.js, "code cache".
 */
export const SCRIPT_BODY_MARKER = '//# intent-devnet: script body below'

/** What follows the body's function expression: its call by the module (the bin calls it itself). */
export const SCRIPT_BODY_CALL = '(require, __bundleUrl);'

/** The ES-module prelude, then the body's helpers: `require` for CommonJS dependencies, and the root. */
const banner = [
  "import { createRequire as __createRequire } from 'node:module';",
  'const require = __createRequire(import.meta.url), __bundleUrl = import.meta.url;',
  'await',
  SCRIPT_BODY_MARKER,
  "(async function (require, __bundleUrl) {'use strict';",
  `const __rootUrl = new URL(${JSON.stringify('../'.repeat(OUT_DIR.split('/').length))}, __bundleUrl);`,
  "const __rootPath = (path) => require('node:url').fileURLToPath(new URL(path, __rootUrl)).replace(/\\/$/, '');",
  "const __bundleFilename = require('node:url').fileURLToPath(__bundleUrl), __bundleDirname = require('node:path').dirname(__bundleFilename);",
].join('\n')

/** The body's end, then its call (see {@link SCRIPT_BODY_MARKER}). */
const footer = ['})', SCRIPT_BODY_CALL].join('\n')

/** What {@link buildBundle} returns. */
export type BuildBundleReturnType = {
  path: string
  bytes: number
  inputs: number
  ms: number
  /** The boot state's bake: its time, or why there is none (see {@link BuildBundleOptions}). */
  bootState?: { ms: number } | { error: string } | 'in the background' | undefined
}

/**
 * How {@link buildBundle} bakes the devnet's boot state (simulator/devnet/bootState.ts) once the
 * bundle is written: `wait` (default), `background` (a detached process the caller does not wait
 * for: the bin's rebuild on a start) or `false`.
 */
export type BuildBundleOptions = { bakeBootState?: 'wait' | 'background' | false | undefined }

/**
 * Bakes the devnet's boot state for the bundle just built, in a process of its own (so the code
 * is the sources as they are now, not modules this process loaded before), through tsx. A bake
 * that fails leaves none: `intent-devnet up` then places and funds as without one.
 */
function bakeBootStateProcess(
  root: string,
  mode: 'wait' | 'background',
): Promise<{ ms: number } | { error: string }> {
  const started = performance.now()
  const child = spawn(
    process.execPath,
    ['--import', 'tsx/esm', join(root, 'scripts/build.ts'), '--bake-boot-state'],
    {
      cwd: root,
      stdio: ['ignore', 'ignore', mode === 'wait' ? 'pipe' : 'ignore'],
      detached: mode === 'background',
    },
  )
  if (mode === 'background') {
    child.on('error', () => {})
    child.unref()
    return Promise.resolve({ ms: 0 })
  }
  let stderr = ''
  child.stderr?.on('data', (data) => {
    stderr = `${stderr}${data}`.slice(-2000)
  })
  return new Promise((resolve) => {
    child.once('error', (error) => resolve({ error: error.message }))
    child.once('exit', (code) =>
      resolve(code === 0 ? { ms: performance.now() - started } : { error: stderr.trim() || `exit ${code}` }),
    )
  })
}

/**
 * Builds one bundle and its stamp. The bundle is written to a temporary file and renamed into
 * place, so a process starting meanwhile sees the old bundle or the new one, never half of one;
 * the stamp is written last and names the bundle it belongs to.
 *
 * @example
 * const { path, ms } = await buildBundle('intent-devnet')
 */
export async function buildBundle(
  name: BundleName,
  root = ROOT,
  options: BuildBundleOptions = {},
): Promise<BuildBundleReturnType> {
  const started = performance.now()
  const startedAt = Date.now()
  const result = await build({
    absWorkingDir: root,
    entryPoints: [join(root, ENTRY_POINTS[name])],
    bundle: true,
    write: false,
    metafile: true,
    outfile: bundlePath(name, root),
    platform: 'node',
    format: 'esm',
    target: 'node20',
    external: [...EXTERNAL_PACKAGES],
    banner: { js: banner },
    footer: { js: footer },
    // Dependencies' own `import.meta` (ours is rewritten by sourceLocations): the body has none.
    define: {
      'import.meta.url': '__bundleUrl',
      'import.meta.dirname': '__bundleDirname',
      'import.meta.filename': '__bundleFilename',
    },
    plugins: [
      sourceLocations(root),
      swaggerUiAssets(root, "__rootPath('')"),
      requireExternals(EXTERNAL_PACKAGES, ROOT),
      lazyBuiltins(ROOT),
    ],
    legalComments: 'none',
    // Linked, not inline: Node reads it only under --enable-source-maps (stack traces into the
    // sources) and the bench's CPU profile; the bundle stays small to parse.
    sourcemap: 'linked',
    logLevel: 'silent',
  })
  const sources = Object.keys(result.metafile.inputs).filter(
    (path) => !path.includes('node_modules/') && !path.startsWith('<'),
  )
  // A file saved while esbuild ran may be in the bundle as it was before: its entry then never
  // matches (size -2), so the next start rebuilds.
  const inputs = [...new Set([...sources, ...EXTRA_INPUTS])]
    .map((path) => fileState(root, path))
    .map(([path, size, mtimeMs]): [string, number, number] =>
      mtimeMs >= startedAt - 1 ? [path, -2, mtimeMs] : [path, size, mtimeMs],
    )
  const output = result.outputFiles.find((file) => file.path === bundlePath(name, root))
  if (!output) throw new Error(`esbuild wrote no ${bundlePath(name, root)}`)
  const text = asScriptBody(output.text)
  copySwaggerUiAssets(root)
  await mkdir(join(root, OUT_DIR), { recursive: true })
  const path = bundlePath(name, root)
  const map = result.outputFiles.find((file) => file.path === `${path}.map`)
  if (map) {
    writeFileSync(`${path}.map.${process.pid}.tmp`, map.contents)
    renameSync(`${path}.map.${process.pid}.tmp`, `${path}.map`)
  }
  const temporary = `${path}.${process.pid}.tmp`
  writeFileSync(temporary, text, 'latin1')
  renameSync(temporary, path)
  const written = statSync(path)
  const stamp: BuildStamp = { bundle: { size: written.size, mtimeMs: written.mtimeMs }, inputs }
  const stampTemporary = `${stampPath(name, root)}.${process.pid}.tmp`
  writeFileSync(stampTemporary, JSON.stringify(stamp))
  renameSync(stampTemporary, stampPath(name, root))
  const ms = performance.now() - started
  const bake = options.bakeBootState ?? 'wait'
  let bootState: BuildBundleReturnType['bootState']
  if (bake === 'background') {
    void bakeBootStateProcess(root, bake)
    bootState = 'in the background'
  } else if (bake === 'wait') bootState = await bakeBootStateProcess(root, bake)
  return { path, bytes: written.size, inputs: inputs.length, ms, bootState }
}

/**
 * Checks that the bundle's body runs as a script (what the bin's code cache needs) and makes it
 * pure ASCII, so the bin reads it as latin1 (one byte a character, no UTF-8 decoding). esbuild
 * escapes every non-ASCII character in strings, so what is left is in comments: each UTF-16 unit
 * becomes `?` (columns, hence the source map, stay as they are).
 */
function asScriptBody(text: string): string {
  const ascii = text.replace(/[\u0080-\uffff]/g, '?')
  const at = ascii.indexOf(`\n${SCRIPT_BODY_MARKER}\n`)
  if (at < 0) throw new Error('the bundle has no script body marker')
  const end = ascii.lastIndexOf(`\n})\n${SCRIPT_BODY_CALL}`)
  if (end < at) throw new Error("the bundle's script body has no end")
  // Throws a SyntaxError when the body still holds an import, an export or import.meta.
  new Script(ascii.slice(at + SCRIPT_BODY_MARKER.length + 2, end + 3))
  return ascii
}

/** Builds every bundle in {@link ENTRY_POINTS}. */
export async function buildAll(root = ROOT): Promise<BuildBundleReturnType[]> {
  const results: BuildBundleReturnType[] = []
  for (const name of Object.keys(ENTRY_POINTS) as BundleName[]) results.push(await buildBundle(name, root))
  return results
}

const isMain = process.argv[1] !== undefined && resolve(process.argv[1]) === fileURLToPath(import.meta.url)
if (isMain) {
  const names = Object.keys(ENTRY_POINTS) as BundleName[]
  if (process.argv.includes('--bake-boot-state')) {
    // The child of bakeBootStateProcess: loads the devnet's sources only here. The OpenAPI
    // document first (~0.3 s; simulator/http/bakeOpenApi.ts): a failed one is only reported.
    const { bakeOpenApi } = await import('../simulator/http/bakeOpenApi')
    await bakeOpenApi(ROOT).catch((error: unknown) =>
      console.error(`the OpenAPI document was not baked: ${(error as Error).message}`),
    )
    const { bakeBootState } = await import('../simulator/devnet/bootState')
    await bakeBootState({ root: ROOT })
    process.exit(0)
  } else if (process.argv.includes('--check')) {
    const stale = names.map((name) => [name, staleReason(name)] as const).filter(([, reason]) => reason)
    for (const [name, reason] of stale) console.error(`${name}: stale (${reason})`)
    process.exitCode = stale.length > 0 ? 1 : 0
  } else if (
    process.argv.includes('--if-possible') &&
    /^(pack|publish)$/.test(process.env.npm_command ?? '')
  ) {
    // `prepare` after `prepack` (scripts/buildPackage.ts --pack has built everything).
  } else {
    // At `npm install` (--if-possible) a failed build must not fail the install: the bin then
    // rebuilds on first run, or runs the sources through tsx and shows the real error.
    const lenient = process.argv.includes('--if-possible')
    try {
      for (const built of await buildAll()) {
        console.log(
          `built ${relative(ROOT, built.path)}: ${(built.bytes / 1024).toFixed(0)} KiB from ${built.inputs} files in ${built.ms.toFixed(0)} ms`,
        )
        const bake = built.bootState
        if (bake && typeof bake === 'object')
          console.log(
            'ms' in bake
              ? `baked the devnet's boot state (dist/devnet-state) in ${bake.ms.toFixed(0)} ms`
              : `no boot state baked (intent-devnet up places and funds at each start): ${bake.error}`,
          )
      }
    } catch (error) {
      console.error(`build failed: ${(error as Error).message}`)
      process.exitCode = lenient ? 0 : 1
    }
  }
}
