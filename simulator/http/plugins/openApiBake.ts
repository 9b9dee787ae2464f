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

/**
 * The OpenAPI document baked at build time, when it is fresh, else undefined (the caller then
 * builds it: @fastify/swagger's `app.swagger()`). The document is a function of the sources
 * alone (the route table's zod schemas, the transforms of plugins/openapi.ts: no option of a
 * start changes it; openapi.test.ts checks the bake against the served app), so the bake of the
 * current bundle holds while that bundle is fresh (no source changed since: bootStateFiles.js
 * `bundleFresh`, ~400 stats, 4-9 ms), whether this process runs the bundle or the sources.
 * Building it costs a fresh process 75-86 ms of CPU (zod's JSON Schema conversion of every
 * route), the largest single cost of the conformance run's simulator; reading the bake ~1 ms.
 *
 * @example
 * const document = bakedOpenApi() ?? app.swagger()
 */
export function bakedOpenApi(root: string = ROOT): Record<string, unknown> | undefined {
  try {
    const bake = JSON.parse(readFileSync(join(root, OPENAPI_BAKE_FILE), 'utf8')) as OpenApiBake
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
