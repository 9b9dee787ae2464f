import { mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, expect, test } from 'vitest'
import { bakeOpenApi, buildOpenApiDocument } from './bakeOpenApi'
import { bakedOpenApi, OPENAPI_BAKE_FILE } from './plugins/openApiBake'
import { testApp } from './testing/fixtures'

let t: Awaited<ReturnType<typeof testApp>>
let root: string
beforeAll(async () => {
  t = await testApp()
  await t.app.ready()
  root = mkdtempSync(join(tmpdir(), 'openapi-bake-'))
})
afterAll(async () => {
  await t.app.close()
  rmSync(root, { recursive: true, force: true })
})

test("the baked document is the served app's, byte for byte (faults plugin and services make no difference)", async () => {
  // @fastify/swagger's own document of an app with the fault plugin and services, not the bake.
  const served = JSON.stringify(t.app.swagger())
  expect(JSON.stringify(await buildOpenApiDocument())).toBe(served)
})

test('GET /openapi.json and /docs/json answer the same document as the app builds', async () => {
  const served = JSON.stringify(t.app.swagger())
  const document = await t.request({ method: 'GET', url: '/openapi.json' })
  expect(document.status).toBe(200)
  expect(JSON.stringify(document.json)).toBe(served)
  const docs = await t.request({ method: 'GET', url: '/docs/json' })
  expect(JSON.stringify(docs.json)).toBe(served)
})

/** A root with a bundle, its stamp (one input) and the input; returns a function to touch a file. */
function fakeRoot() {
  mkdirSync(join(root, 'dist'), { recursive: true })
  mkdirSync(join(root, 'src'), { recursive: true })
  writeFileSync(join(root, 'dist/intent-devnet.mjs'), 'bundle')
  writeFileSync(join(root, 'src/a.ts'), 'source')
  const at = new Date('2026-01-01T00:00:00Z')
  utimesSync(join(root, 'dist/intent-devnet.mjs'), at, at)
  utimesSync(join(root, 'src/a.ts'), at, at)
  const stamp = {
    bundle: { size: 6, mtimeMs: at.getTime() },
    inputs: [['src/a.ts', 6, at.getTime()]],
  }
  writeFileSync(join(root, 'dist/intent-devnet.stamp.json'), JSON.stringify(stamp))
  return stamp
}

test('the bake is read while its bundle is fresh; a rebuilt bundle or a changed source is built anew', async () => {
  const stamp = fakeRoot()
  expect(bakedOpenApi(root)).toBeUndefined()
  const baked = await bakeOpenApi(root)
  expect(baked?.path).toBe(join(root, OPENAPI_BAKE_FILE))
  const document = bakedOpenApi(root)
  expect(JSON.stringify(document)).toBe(JSON.stringify(t.app.swagger()))

  // The bundle rebuilt (another stamp) without a new bake.
  writeFileSync(
    join(root, 'dist/intent-devnet.stamp.json'),
    JSON.stringify({ ...stamp, bundle: { ...stamp.bundle, mtimeMs: stamp.bundle.mtimeMs + 1 } }),
  )
  expect(bakedOpenApi(root)).toBeUndefined()
  writeFileSync(join(root, 'dist/intent-devnet.stamp.json'), JSON.stringify(stamp))
  expect(bakedOpenApi(root)).toBeDefined()

  // A source changed since the build: the bundle is stale, so is the bake.
  writeFileSync(join(root, 'src/a.ts'), 'changed')
  expect(bakedOpenApi(root)).toBeUndefined()

  // No bake, or one that is not JSON.
  fakeRoot()
  writeFileSync(join(root, OPENAPI_BAKE_FILE), '{')
  expect(bakedOpenApi(root)).toBeUndefined()
})

test('run from the CLI bundle, the bake holds when it names that bundle: no source is looked at', async () => {
  const stamp = fakeRoot()
  await bakeOpenApi(root)
  const running = (size: number, mtimeMs: number) =>
    `${join(root, 'dist/intent-devnet.mjs')} ${size} ${mtimeMs}`
  // The sources changed after the bundle was loaded: the running code is still the bundle's.
  writeFileSync(join(root, 'src/a.ts'), 'changed')
  expect(bakedOpenApi(root)).toBeUndefined()
  expect(bakedOpenApi(root, running(stamp.bundle.size, stamp.bundle.mtimeMs))).toBeDefined()
  // Another bundle runs (rebuilt since the bake), or one of another install.
  expect(bakedOpenApi(root, running(stamp.bundle.size + 1, stamp.bundle.mtimeMs))).toBeUndefined()
  expect(bakedOpenApi(root, running(stamp.bundle.size, stamp.bundle.mtimeMs + 1))).toBeUndefined()
  expect(
    bakedOpenApi(root, `/elsewhere/dist/intent-devnet.mjs ${stamp.bundle.size} ${stamp.bundle.mtimeMs}`),
  ).toBeUndefined()
})
