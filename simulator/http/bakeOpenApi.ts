import { renameSync, writeFileSync } from 'node:fs'
import { mkdir } from 'node:fs/promises'
import { dirname, join } from 'node:path'
import { buildApp } from './app'
import type { HttpServices } from './domainServices'
import { bundleStampOf, OPENAPI_BAKE_FILE, type OpenApiBake } from './plugins/openApiBake'

/**
 * The OpenAPI document as the service serves it (`GET /openapi.json`), built by an app that is
 * never started: the document comes from the route table and plugins/openapi.ts alone, not
 * from the services (no handler runs) or a start's options (openapi.test.ts compares it with a
 * served app's).
 */
export async function buildOpenApiDocument(): Promise<Record<string, unknown>> {
  const app = await buildApp({ apiKeys: ['bake'] }, {} as HttpServices)
  try {
    await app.ready()
    return app.swagger() as unknown as Record<string, unknown>
  } finally {
    await app.close()
  }
}

/**
 * Bakes the OpenAPI document for the bundle just built (scripts/build.ts runs it in the boot
 * state's bake process, so the code is the sources the bundle was built from): writes
 * {@link OPENAPI_BAKE_FILE} naming the bundle's stamp as it was when the bake began (a source
 * changed meanwhile makes the bundle stale, hence the bake too: plugins/openApiBake.ts).
 *
 * @example
 * await bakeOpenApi(root)
 */
export async function bakeOpenApi(root: string): Promise<{ path: string; bytes: number } | undefined> {
  const bundle = bundleStampOf(root)
  if (!bundle) return undefined
  const bake: OpenApiBake = { bundle, document: await buildOpenApiDocument() }
  const path = join(root, OPENAPI_BAKE_FILE)
  await mkdir(dirname(path), { recursive: true })
  const text = JSON.stringify(bake)
  writeFileSync(`${path}.${process.pid}.tmp`, text)
  renameSync(`${path}.${process.pid}.tmp`, path)
  return { path, bytes: text.length }
}
