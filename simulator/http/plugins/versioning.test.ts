import { describe, expect, it } from 'vitest'
import { resolveVersion, versionError } from './versioning'

describe('resolveVersion', () => {
  it('an absent header is missing (alps, an error only where the header is required)', () => {
    expect(resolveVersion(undefined)).toEqual({ version: '2026-01.alps', problem: 'missing' })
    expect(versionError(undefined, 'missing', false)).toBeUndefined()
  })

  it('an empty header is present and malformed: 400 VALIDATION_ERROR even where the header is optional', () => {
    const resolved = resolveVersion('')
    expect(resolved).toEqual({ version: '2026-01.alps', problem: 'malformed' })
    const error = versionError('', resolved.problem, false)
    expect(error?.code).toBe('VALIDATION_ERROR')
    expect(error?.message).toMatch(/header "" is malformed/)
  })

  it('a known version is served as itself', () => {
    expect(resolveVersion('2026-04.blanc')).toEqual({ version: '2026-04.blanc', problem: undefined })
  })
})
