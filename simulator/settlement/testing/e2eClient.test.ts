import { describe, expect, it } from 'vitest'
import { isForwardRunToCompleted } from './e2eClient'

describe('isForwardRunToCompleted', () => {
  it('accepts statuses in lifecycle order ending at COMPLETED, polling gaps included', () => {
    expect(isForwardRunToCompleted(['PENDING', 'PRECONFIRMED', 'FILLED', 'COMPLETED'])).toBe(true)
    expect(isForwardRunToCompleted(['PENDING', 'FILLED', 'COMPLETED'])).toBe(true)
    expect(isForwardRunToCompleted(['PENDING', 'COMPLETED'])).toBe(true)
  })

  it('refuses a step back, an unknown or final-but-not-completed status, or a run that does not complete', () => {
    expect(isForwardRunToCompleted(['PENDING', 'FILLED', 'PRECONFIRMED', 'COMPLETED'])).toBe(false)
    expect(isForwardRunToCompleted(['PENDING', 'FILLED', 'FILLED', 'COMPLETED'])).toBe(false)
    expect(isForwardRunToCompleted(['PENDING', 'FAILED'])).toBe(false)
    expect(isForwardRunToCompleted(['PENDING', 'CLAIMED', 'COMPLETED'])).toBe(false)
    expect(isForwardRunToCompleted(['PENDING', 'FILLED'])).toBe(false)
    expect(isForwardRunToCompleted([])).toBe(false)
  })
})
