import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { bundleFresh } from '../../devnet/bootStateFiles.js'

/**
 * Where the build bakes the OpenAPI document (simulator/http/bakeOpenApi.ts), relative to the
 * project's root: `{ bundle, document }`, `bundle` being the CLI bundle's stamp (size, mtime)
 * when the bake began.
 */
export const OPENAPI_BAKE_FILE = 'dist/openapi.json'

/** The CLI's bundle, relative to the root. */
const BUNDLE = 'dist/intent-devnet.mjs'

/** scripts/build.ts stampPath of the CLI's bundle, relative to the root. */
const BUNDLE_STAMP = 'dist/intent-devnet.stamp.json'

/** The project's root (where dist/ is), from this module's place in the source tree. */
const ROOT = fileURLToPath(new URL('../../../', import.meta.url))

/** What {@link OPENAPI_BAKE_FILE} holds. */
export type OpenApiBake = {
  /** The bundle's stamp (scripts/build.ts BuildStamp's `bundle`) the document was baked for. */
  bundle: { size: number; mtimeMs: number }
  /** The document, as `app.swagger()` builds it. */
  document: Record<string, unknown>
}

/** What the bin sets when it runs a CLI bundle it found fresh (bin/intent-devnet.js): `path size mtimeMs`. */
const BUILD = Symbol.for('intent-devnet.build')

/**
 * The OpenAPI document baked at build time, when it is the running code's, else undefined (the
 * caller then builds it: @fastify/swagger's `app.swagger()`). The document is a function of the
 * code alone (the route table's zod schemas, the transforms of plugins/openapi.ts: no option of a
 * start changes it; openapi.test.ts checks the bake against the served app). Run from the CLI
 * bundle (`running`, which the bin sets once it has found the bundle fresh): the bake holds when
 * it names that bundle, by size and mtime, with no further check. Run from the sources (tsx,
 * tests): when the bundle is still fresh (no source changed since its build: bootStateFiles.js
 * `bundleFresh`, ~400 stats, 4-9 ms). Building it costs a fresh process 75-86 ms of CPU (zod's
 * JSON Schema conversion of every route); reading the bake ~1 ms.
 *
 * @example
 * const document = bakedOpenApi() ?? app.swagger()
 */
export function bakedOpenApi(
  root: string = ROOT,
  running: unknown = (globalThis as { [BUILD]?: unknown })[BUILD],
): Record<string, unknown> | undefined {
  try {
    const bake = JSON.parse(readFileSync(join(root, OPENAPI_BAKE_FILE), 'utf8')) as OpenApiBake
    const bundlePath = join(root, BUNDLE)
    if (typeof running === 'string' && running.startsWith(`${bundlePath} `)) {
      const [size, mtimeMs] = running
        .slice(bundlePath.length + 1)
        .split(' ')
        .map(Number)
      return bake.bundle.size === size && bake.bundle.mtimeMs === mtimeMs ? bake.document : undefined
    }
    const { bundle } = JSON.parse(readFileSync(join(root, BUNDLE_STAMP), 'utf8')) as OpenApiBake
    if (bake.bundle.size !== bundle.size || bake.bundle.mtimeMs !== bundle.mtimeMs) return undefined
    return bundleFresh(root) ? bake.document : undefined
  } catch {
    return undefined
  }
}

/** The bundle's stamp as the bake records it (undefined without a bundle). */
export function bundleStampOf(root: string): OpenApiBake['bundle'] | undefined {
  try {
    return (JSON.parse(readFileSync(join(root, BUNDLE_STAMP), 'utf8')) as OpenApiBake).bundle
  } catch {
    return undefined
  }
}
