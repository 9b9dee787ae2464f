import { mkdir, mkdtemp, readdir, readFile, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { basename, join } from 'node:path'
import { afterEach, describe, expect, test, vi } from 'vitest'
import { DEFAULT_SCENARIOS_DIR, loadScenarios, parseScenario } from './loadScenarios'
import { openValidatedCache, openYamlCache } from './yamlCache'

const VALID = 'id: a.b\ntitle: t\nspec: s\nsteps:\n  - http: { method: GET, path: /health }\n'

afterEach(() => {
  vi.unstubAllEnvs()
})

describe('the YAML cache', () => {
  test('keeps what a load read for the next one', async () => {
    const file = join(await mkdtemp(join(tmpdir(), 'yaml-cache-')), 'cache.json')
    const first = openYamlCache({ file })
    expect(first.get('a: 1\n')).toBeUndefined()
    first.set('a: 1\n', { a: 1 })
    first.save()
    expect(openYamlCache({ file }).get('a: 1\n')).toEqual({ a: 1 })
    expect(openYamlCache({ file }).get('a: 2\n')).toBeUndefined()
  })

  test('does not keep values JSON would change', async () => {
    const file = join(await mkdtemp(join(tmpdir(), 'yaml-cache-')), 'cache.json')
    const cache = openYamlCache({ file })
    cache.set('x: .inf\n', { x: Number.POSITIVE_INFINITY })
    cache.set('x: -0\n', { x: -0 })
    cache.save()
    const again = openYamlCache({ file })
    expect(again.get('x: .inf\n')).toBeUndefined()
    expect(again.get('x: -0\n')).toBeUndefined()
  })

  test('a cached value that does not validate is read again from the YAML', async () => {
    const file = join(await mkdtemp(join(tmpdir(), 'yaml-cache-')), 'cache.json')
    const cache = openYamlCache({ file })
    cache.set(VALID, { id: 'not a scenario' })
    expect(parseScenario(VALID, 'ok.yaml', cache).scenario?.id).toBe('a.b')
    // An invalid text is never cached: its problems keep their lines.
    const bad = 'id: a.b\ntitle: t\nspec: s\nsteps:\n  - http: { method: GET }\n'
    const once = parseScenario(bad, 'bad.yaml', cache)
    expect(once.problems[0]).toMatchObject({ line: 5 })
    cache.save()
    expect(openYamlCache({ file }).get(bad)).toBeUndefined()
  })

  test('the bundled packs load the same through the cache as without it', async () => {
    vi.stubEnv('INTENT_DEVNET_SCENARIO_CACHE', '0')
    const plain = await loadScenarios()
    vi.unstubAllEnvs()
    await loadScenarios() // fills the cache
    const cached = await loadScenarios()
    expect(cached).toEqual(plain)
  })

  test('a corrupt cache file is ignored', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'yaml-cache-'))
    const file = join(dir, 'cache.json')
    await writeFile(file, '{not json')
    const cache = openYamlCache({ file })
    expect(cache.get(VALID)).toBeUndefined()
    expect(parseScenario(VALID, 'ok.yaml', cache).scenario?.id).toBe('a.b')
  })
})

describe('the validated scenarios of a CLI build', () => {
  const BUILD = Symbol.for('intent-devnet.build')
  const setBuild = (build: string | undefined) => {
    ;(globalThis as { [BUILD]?: string | undefined })[BUILD] = build
  }
  afterEach(() => setBuild(undefined))

  test('a build loads the packs from what it validated before, the same as validating them', async () => {
    const tmp = await mkdtemp(join(tmpdir(), 'valid-cache-'))
    vi.stubEnv('TMPDIR', tmp)
    const plain = await loadScenarios()
    expect(openValidatedCache()).toBeUndefined() // not a CLI bundle: every text is validated
    setBuild('/x/dist/intent-devnet.mjs 100 1')
    await loadScenarios() // fills it
    const files = (await readdir(join(tmp, `intent-devnet-cache-${process.getuid?.() ?? 'user'}`))).filter(
      (f) => f.startsWith('scenarios-valid.'),
    )
    expect(files).toHaveLength(1)
    const cached = await loadScenarios()
    expect(cached).toEqual(plain)
    expect(
      openValidatedCache()!.get(
        await readFile(join(DEFAULT_SCENARIOS_DIR, cached[0]!.pack, basename(cached[0]!.file)), 'utf8'),
      ),
    ).toBeDefined()
  })

  test('a text it did not validate is validated, and its problems found in the YAML', async () => {
    const tmp = await mkdtemp(join(tmpdir(), 'valid-cache-'))
    vi.stubEnv('TMPDIR', tmp)
    setBuild('/x/dist/intent-devnet.mjs 100 2')
    const dir = join(tmp, 'packs')
    await mkdir(join(dir, 'demo'), { recursive: true })
    await writeFile(join(dir, 'demo', 'a.yaml'), VALID)
    expect((await loadScenarios({ dir })).map((s) => s.id)).toEqual(['a.b'])
    await writeFile(join(dir, 'demo', 'a.yaml'), VALID.replace('path: /health ', ''))
    await expect(loadScenarios({ dir })).rejects.toMatchObject({
      problems: [{ line: 5, field: 'steps[0].http.path' }],
    })
    // Another build validates anew, in a file of its own.
    setBuild('/x/dist/intent-devnet.mjs 100 3')
    expect(openValidatedCache()!.get(VALID)).toBeUndefined()
    setBuild('/x/dist/intent-devnet.mjs 100 2')
    expect(openValidatedCache()!.get(VALID)).toMatchObject({ id: 'a.b' })
  })

  test('keeps the files of the newest builds only', async () => {
    const tmp = await mkdtemp(join(tmpdir(), 'valid-cache-'))
    vi.stubEnv('TMPDIR', tmp)
    for (let build = 0; build < 10; build++) {
      setBuild(`/x/dist/intent-devnet.mjs 100 ${build}`)
      const cache = openValidatedCache()!
      cache.set(VALID, { id: `a.${build}` })
      cache.save()
    }
    const files = await readdir(join(tmp, `intent-devnet-cache-${process.getuid?.() ?? 'user'}`))
    expect(files.filter((f) => f.startsWith('scenarios-valid.'))).toHaveLength(8)
    expect(openValidatedCache()!.get(VALID)).toEqual({ id: 'a.9' })
  })
})
