/**
 * Builds what the package's entry points load (issue 26): each export as plain JavaScript under
 * `dist/lib` (ES modules with shared chunks; CommonJS too for the entries a CommonJS runner
 * such as Jest requires: `spec`, `testcontainers`), and with `--types` their declarations under
 * `dist/types` (tsc, only the files the entries reach). Every dependency is inlined but those
 * {@link LIBRARY_EXTERNALS} names: the published package depends on nothing that wants a newer
 * Node than ours. Runs at `prepare` (JavaScript) and `prepack` (everything, then the CLI's
 * bundle and boot state, then the {@link PACKED_MARKER} that tells the bin to trust them).
 *
 * @example
 * npx tsx scripts/buildPackage.ts            # dist/lib
 * npx tsx scripts/buildPackage.ts --pack     # dist/lib, dist/types, the CLI bundle, the marker
 */
import { spawnSync } from 'node:child_process'
import {
  cpSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  realpathSync,
  rmSync,
  writeFileSync,
} from 'node:fs'
import { dirname, join, relative, resolve } from 'node:path'
import { build, type Plugin } from 'esbuild'
import { buildAll, ROOT, sourceLocations } from './build'
import { copySwaggerUiAssets, swaggerUiAssets } from './swaggerUiAssets'

/** The package's entry points: export name → source (package.json `exports` points at their builds). */
export const LIBRARY_ENTRIES = {
  index: 'simulator/index.ts',
  conformance: 'conformance/index.ts',
  spec: 'spec/index.ts',
  testcontainers: 'integrations/testcontainers.ts',
  vitest: 'integrations/vitest.ts',
} as const

/** The entries also built as CommonJS (`dist/lib/NAME.cjs`): what Jest's `require` loads. */
export const COMMONJS_ENTRIES = ['spec', 'testcontainers'] as const

/**
 * Packages the library builds leave to `node_modules`: the runtime dependencies whose types are
 * in our declarations (viem, zod), the optional peers (vitest, testcontainers), and those that find
 * files beside their code (the Anvil binary, secp256k1's addon). Everything else is inlined.
 */
export const LIBRARY_EXTERNALS = [
  'viem',
  'viem/*',
  'zod',
  'zod/*',
  'vitest',
  'vitest/*',
  'testcontainers',
  '@foundry-rs/*',
  'secp256k1',
  'esbuild',
  'tsx',
  'tsx/*',
] as const

/** Written at `prepack`: names the root it was built in; elsewhere (installed) the build is trusted as it is. */
export const PACKED_MARKER = 'dist/packed.json'

/** The root (as a path) and the `require` of a library chunk, for ESM and CommonJS. */
const prelude = {
  esm: [
    "import { createRequire as __createRequire } from 'node:module';",
    'const require = __createRequire(import.meta.url);',
    // Chunks sit at different depths: the root is what precedes /dist/.
    "const __rootUrl = new URL(import.meta.url.slice(0, import.meta.url.lastIndexOf('/dist/') + 1));",
    "const __rootPath = (path) => require('node:url').fileURLToPath(new URL(path, __rootUrl)).replace(/\\/$/, '');",
  ].join('\n'),
  cjs: [
    "const __rootUrl = require('node:url').pathToFileURL(__dirname.slice(0, __dirname.lastIndexOf('/dist')) + '/');",
    "const __rootPath = (path) => require('node:url').fileURLToPath(new URL(path, __rootUrl)).replace(/\\/$/, '');",
    "const __importMetaUrl = require('node:url').pathToFileURL(__filename).href;",
  ].join('\n'),
}

/** Keeps the integrations' plain CommonJS files (jest/, devnetProcess.cjs) as they are, beside the sources. */
function keepCommonJsFiles(root: string): Plugin {
  return {
    name: 'keep-cjs-files',
    setup(build) {
      build.onResolve({ filter: /\.cjs$/ }, (args) => ({
        path: relative(join(root, 'dist/lib'), resolve(args.resolveDir, args.path)),
        external: true,
      }))
    },
  }
}

/**
 * Builds `dist/lib`: every entry as an ES module, the {@link COMMONJS_ENTRIES} as CommonJS too.
 *
 * @example
 * await buildLibrary()
 */
export async function buildLibrary(root = ROOT): Promise<{ ms: number }> {
  const started = performance.now()
  rmSync(join(root, 'dist/lib'), { recursive: true, force: true })
  const entryPoints = Object.fromEntries(
    Object.entries(LIBRARY_ENTRIES).map(([name, source]) => [name, join(root, source)]),
  )
  const common = {
    absWorkingDir: root,
    bundle: true,
    platform: 'node',
    target: 'node20',
    external: [...LIBRARY_EXTERNALS] as string[],
    legalComments: 'none',
    logLevel: 'error',
    sourcemap: false,
  } as const
  await build({
    ...common,
    entryPoints,
    outdir: join(root, 'dist/lib'),
    format: 'esm',
    splitting: true,
    chunkNames: 'chunks/[name]-[hash]',
    banner: { js: prelude.esm },
    plugins: [sourceLocations(root), swaggerUiAssets(root, "__rootPath('')"), keepCommonJsFiles(root)],
  })
  for (const name of COMMONJS_ENTRIES)
    await build({
      ...common,
      entryPoints: { [name]: join(root, LIBRARY_ENTRIES[name]) },
      outdir: join(root, 'dist/lib'),
      outExtension: { '.js': '.cjs' },
      format: 'cjs',
      banner: { js: prelude.cjs },
      define: { 'import.meta.url': '__importMetaUrl' },
      plugins: [sourceLocations(root), keepCommonJsFiles(root)],
    })
  copySwaggerUiAssets(root)
  return { ms: performance.now() - started }
}

/** Relative specifiers of a declaration file, made explicit (`./x` → `./x.js`, `./dir` → `./dir/index.js`) for NodeNext consumers. */
const withExtensions = (file: string, text: string) =>
  text.replace(/((?:from|import)\s*\(?\s*['"])(\.{1,2}\/[^'"]*)(['"])/g, (whole, head, spec, tail) => {
    if (/\.(js|cjs|mjs|json)$/.test(spec)) return whole
    const base = resolve(dirname(file), spec)
    if (existsSync(`${base}.d.ts`)) return `${head}${spec}.js${tail}`
    if (existsSync(join(base, 'index.d.ts'))) return `${head}${spec}/index.js${tail}`
    return whole
  })

/**
 * Builds `dist/types`: tsc's declarations of every entry and what they reach (with the
 * hand-written declarations of our plain JavaScript modules), specifiers made explicit.
 *
 * @example
 * buildTypes()
 */
export function buildTypes(root = ROOT): { files: number } {
  const out = join(root, 'dist/types')
  rmSync(out, { recursive: true, force: true })
  const config = join(root, 'dist/tsconfig.types.json')
  mkdirSync(dirname(config), { recursive: true })
  writeFileSync(
    config,
    JSON.stringify({
      extends: '../tsconfig.json',
      compilerOptions: {
        noEmit: false,
        declaration: true,
        emitDeclarationOnly: true,
        outDir: 'types',
        rootDir: '..',
      },
      include: [],
      files: Object.values(LIBRARY_ENTRIES).map((source) => `../${source}`),
    }),
  )
  const tsc = spawnSync(process.execPath, [join(root, 'node_modules/typescript/bin/tsc'), '-p', config], {
    cwd: root,
    encoding: 'utf8',
  })
  rmSync(config)
  if (tsc.status !== 0) throw new Error(`tsc (declarations) failed:\n${tsc.stdout}${tsc.stderr}`)
  // Our plain JavaScript modules carry hand-written declarations beside them.
  for (const file of ['simulator/devnet/anvilProcess.d.ts', 'simulator/devnet/bootStateFiles.d.ts'])
    cpSync(join(root, file), join(out, file))
  let files = 0
  const walk = (dir: string) => {
    for (const entry of readdirSyncSafe(dir)) {
      const path = join(dir, entry)
      if (entry.endsWith('.d.ts')) {
        writeFileSync(path, withExtensions(path, readFileSync(path, 'utf8')))
        files++
      } else if (!entry.includes('.')) walk(path)
    }
  }
  walk(out)
  return { files }
}

const readdirSyncSafe = (dir: string): string[] => (existsSync(dir) ? readdirSync(dir) : [])

const isMain = process.argv[1] !== undefined && resolve(process.argv[1]) === resolve(import.meta.filename)
if (
  isMain &&
  process.argv.includes('--if-possible') &&
  /^(pack|publish)$/.test(process.env.npm_command ?? '')
) {
  // `prepare` after `prepack`, which built everything.
} else if (isMain) {
  const pack = process.argv.includes('--pack')
  const library = await buildLibrary()
  console.log(`built dist/lib in ${library.ms.toFixed(0)} ms`)
  if (pack) {
    rmSync(join(ROOT, PACKED_MARKER), { force: true })
    const types = buildTypes()
    console.log(`built dist/types: ${types.files} declaration files`)
    // `intent-devnet image` from an installed package (scripts/image/imageCli.ts): no tsx there.
    await build({
      absWorkingDir: ROOT,
      entryPoints: [join(ROOT, 'scripts/image/buildImageCommand.ts')],
      outfile: join(ROOT, 'dist/image.mjs'),
      bundle: true,
      platform: 'node',
      target: 'node20',
      format: 'esm',
      external: [...LIBRARY_EXTERNALS] as string[],
      banner: { js: prelude.esm },
      plugins: [sourceLocations(ROOT)],
      logLevel: 'error',
    })
    for (const built of await buildAll())
      console.log(
        `built ${relative(ROOT, built.path)} (${(built.bytes / 1024).toFixed(0)} KiB), boot state: ${JSON.stringify(built.bootState)}`,
      )
    const { version } = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string }
    writeFileSync(join(ROOT, PACKED_MARKER), JSON.stringify({ version, root: realpathSync(ROOT) }))
  }
}
