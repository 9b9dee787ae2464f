import { describe, expect, test } from 'vitest'
import { loadScenarios } from '../scenario/loadScenarios'
import { packDigest, runMetadata } from './runMetadata'

describe('packDigest', () => {
  test('is the digest of the scenarios in id order, without their files; runMetadata takes it when not given', async () => {
    const scenarios = await loadScenarios({ packs: ['versioning', 'quotes'] })
    const digest = packDigest(scenarios)
    expect(digest).toMatch(/^sha256:[0-9a-f]{64}$/)
    expect(packDigest([...scenarios].reverse())).toBe(digest)
    expect(packDigest(scenarios.map((scenario) => ({ ...scenario, file: `moved/${scenario.file}` })))).toBe(
      digest,
    )
    const [first, ...rest] = scenarios
    expect(packDigest([{ ...first!, title: `${first!.title}!` }, ...rest])).not.toBe(digest)
    const metadata = {
      scenarios,
      results: [],
      target: 'http://127.0.0.1:1',
      date: '2026-01-01T00:00:00.000Z',
    }
    expect(runMetadata(metadata).packDigest).toBe(digest)
    expect(runMetadata({ ...metadata, packDigest: digest }).packDigest).toBe(digest)
  })
})
