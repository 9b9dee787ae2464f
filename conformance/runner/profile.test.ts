import { mkdtemp, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, test } from 'vitest'
import { applyProfile, loadProfile, normalizeCaip2, PUBLIC_PROFILE, SPEC_PROFILE } from './profile'

const signatures = { origin: ['0x01'], destination: '0x02' }

describe('applyProfile', () => {
  test('the spec profile leaves every request as it is', () => {
    expect(
      applyProfile(SPEC_PROFILE, { method: 'POST', path: '/intents/7/submit', body: { signatures } }),
    ).toEqual({ method: 'POST', path: '/intents/7/submit', body: { signatures }, caip2Response: [] })
  })

  test('public: blanc quotes at POST /quotes, alps keeps POST /intents/route', () => {
    expect(
      applyProfile(PUBLIC_PROFILE, { method: 'POST', path: '/intents/route', version: 'blanc' }).path,
    ).toBe('/quotes')
    expect(
      applyProfile(PUBLIC_PROFILE, { method: 'POST', path: '/intents/route', version: 'alps' }).path,
    ).toBe('/intents/route')
    // Without a known x-api-version (none, unknown, malformed: alike) a request goes where the
    // profile's `unversioned` says (learned from the target): the spec's path by default.
    for (const version of [undefined, 'other'] as const) {
      expect(applyProfile(PUBLIC_PROFILE, { method: 'POST', path: '/intents/route', version }).path).toBe(
        '/intents/route',
      )
      expect(
        applyProfile(
          { ...PUBLIC_PROFILE, unversioned: 'mapped' },
          { method: 'POST', path: '/intents/route', version },
        ).path,
      ).toBe('/quotes')
    }
  })

  test('public: the submit moves the intent id into the body; the status reads CAIP-2 chains', () => {
    expect(
      applyProfile(PUBLIC_PROFILE, { method: 'POST', path: '/intents/i%2F7/submit', body: { signatures } }),
    ).toMatchObject({ method: 'POST', path: '/intents', body: { intentId: 'i/7', signatures } })
    const status = applyProfile(PUBLIC_PROFILE, { method: 'GET', path: '/intents/abc' })
    expect(status).toMatchObject({ path: '/intents/abc', caip2Response: ['/operations/*/chain'] })
    expect(
      normalizeCaip2(
        { operations: [{ chain: 'eip155:8453' }, { chain: 10 }, { chain: 'base' }] },
        status.caip2Response,
      ),
    ).toEqual({ operations: [{ chain: 8453 }, { chain: 10 }, { chain: 'base' }] })
  })

  test('a profile file maps any path under a base path, writes CAIP-2 chain ids, and never maps /_devnet/', async () => {
    const file = join(await mkdtemp(join(tmpdir(), 'profile-')), 'vendor.yaml')
    await writeFile(
      file,
      [
        'name: vendor',
        'basePath: /api/v9',
        'routes:',
        '  - spec: POST /intents/{intentId}/submit',
        '    target: PUT /orders/{intentId}/signatures',
        '  - spec: POST /intents/route',
        '    target: POST /route',
        '    caip2: { request: [/destinationChainId] }',
      ].join('\n'),
    )
    const profile = await loadProfile(file)
    expect(profile.name).toBe('vendor (vendor.yaml)')
    expect(
      applyProfile(profile, { method: 'POST', path: '/intents/x/submit?dry=1', body: {} }),
    ).toMatchObject({
      method: 'PUT',
      path: '/api/v9/orders/x/signatures?dry=1',
    })
    expect(
      applyProfile(profile, { method: 'POST', path: '/intents/route', body: { destinationChainId: 8453 } })
        .body,
    ).toEqual({ destinationChainId: 'eip155:8453' })
    expect(applyProfile(profile, { method: 'POST', path: '/withdrawals' }).path).toBe('/api/v9/withdrawals')
    expect(applyProfile(profile, { method: 'GET', path: '/_devnet/manifest' }).path).toBe('/_devnet/manifest')
  })

  test('an invalid profile file names the field', async () => {
    const file = join(await mkdtemp(join(tmpdir(), 'profile-')), 'bad.json')
    await writeFile(file, JSON.stringify({ name: 'x', routes: [{ spec: 'FETCH /a', target: 'POST /b' }] }))
    await expect(loadProfile(file)).rejects.toThrowErrorMatchingInlineSnapshot(
      `[Conformance.ProfileError: The profile ${file} is not valid: routes.0.spec: a route is "<METHOD> /path", with {name} for a path parameter.]`,
    )
    await expect(loadProfile('nope')).rejects.toThrow(
      '--profile nope is neither spec, public, nor a readable file.',
    )
  })
})
