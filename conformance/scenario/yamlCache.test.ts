import { mkdtemp, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, test, vi } from 'vitest'
import { loadScenarios, parseScenario } from './loadScenarios'
import { openYamlCache } from './yamlCache'

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
