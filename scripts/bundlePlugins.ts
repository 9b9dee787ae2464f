/**
 * esbuild plugins of the CLI's bundle (scripts/build.ts): Node's modules and the external
 * packages as `require`s (so the bundle's body runs as a script), and builtins a dependency loads
 * but the devnet never uses, deferred.
 */
import { isBuiltin } from 'node:module'
import type { Plugin } from 'esbuild'

/**
 * Every `import` of Node's own modules and of the external packages (scripts/build.ts EXTERNAL_PACKAGES) becomes a `require` (a
 * small CommonJS module in the bundle), so the bundle's body has no import statement: it can run
 * as a script. All of them are CommonJS (or Node's modules), which is what a `require` gives.
 */
export function requireExternals(packages: readonly string[], root: string): Plugin {
  const external = new RegExp(
    `^(?:${packages.map((name) => name.replace('/*', '/.+').replace(/[.]/g, '\\.')).join('|')})(?:/.*)?$`,
  )
  return {
    name: 'require-externals',
    setup(build) {
      build.onResolve({ filter: /.*/ }, (args) => {
        if (args.kind !== 'import-statement' && args.kind !== 'dynamic-import') return undefined
        if (!isBuiltin(args.path) && !external.test(args.path)) return undefined
        return { path: args.path, namespace: 'require-external' }
      })
      build.onLoad({ filter: /.*/, namespace: 'require-external' }, (args) => ({
        contents: `module.exports = require(${JSON.stringify(args.path)})`,
        loader: 'js',
        resolveDir: build.initialOptions.absWorkingDir ?? root,
      }))
    },
  }
}

/**
 * Node modules a dependency requires when it loads but uses only on a path the devnet never
 * takes, by the dependency's file (under node_modules): in the bundle each is required on its
 * first use instead (its properties are read through a Proxy). fastify's server.js requires https
 * and http2 (and with them tls) for the servers it builds only when asked for https or http2:
 * ~12 ms of compiling Node's own modules at every start (issue 18, BENCHMARKS.md "Fast start").
 */
export const LAZY_BUILTINS: Record<string, readonly string[]> = {
  'fastify/lib/server.js': ['node:https', 'node:http2'],
}

/** The `require`s of {@link LAZY_BUILTINS}, deferred. */
export function lazyBuiltins(root: string): Plugin {
  const filter = new RegExp(
    `^(?:${[...new Set(Object.values(LAZY_BUILTINS).flat())].map((name) => name.replace(/[.]/g, '\\.')).join('|')})$`,
  )
  return {
    name: 'lazy-builtins',
    setup(build) {
      build.onResolve({ filter }, (args) => {
        if (args.kind !== 'require-call') return undefined
        const from = args.importer.replaceAll('\\', '/')
        const lazy = Object.entries(LAZY_BUILTINS).some(
          ([file, names]) => from.endsWith(`/node_modules/${file}`) && names.includes(args.path),
        )
        return lazy ? { path: args.path, namespace: 'lazy-builtin' } : undefined
      })
      build.onLoad({ filter: /.*/, namespace: 'lazy-builtin' }, (args) => ({
        contents: `let loaded;\nmodule.exports = new Proxy({}, { get: (_, key) => (loaded ??= require(${JSON.stringify(args.path)}))[key] });`,
        loader: 'js',
        resolveDir: build.initialOptions.absWorkingDir ?? root,
      }))
    },
  }
}
