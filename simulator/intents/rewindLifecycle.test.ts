import { describe, expect, it } from 'vitest'
import { applyIntentEvent, initialLifecycle, type LifecycleState, rewindLifecycle } from './lifecycle'

const A = `0x${'a'.repeat(64)}` as const
const B = `0x${'b'.repeat(64)}` as const
const C = `0x${'c'.repeat(64)}` as const

function completed(): LifecycleState {
  let state = initialLifecycle([10, 42161], 1)
  state = applyIntentEvent(
    state as LifecycleState & { status: 'PENDING' },
    { type: 'fillMined', txHash: A, timestamp: 2 },
    2,
  )
  state = applyIntentEvent(
    state as LifecycleState & { status: 'FILLED' },
    { type: 'claimMined', chainId: 10, txHash: B, timestamp: 3 },
    3,
  )
  return applyIntentEvent(
    state as LifecycleState & { status: 'FILLED' },
    { type: 'claimMined', chainId: 42161, txHash: C, timestamp: 3 },
    3,
  )
}

describe('rewindLifecycle', () => {
  it('takes an intent whose fill is gone back to PENDING, every claim with it', () => {
    const state = rewindLifecycle(completed(), { fill: true, claimChainIds: [] }, 9)
    expect(state.status).toBe('PENDING')
    expect(state.fill).toEqual({ txHash: null, timestamp: null })
    expect(state.claims.map((c) => [c.status, c.txHash])).toEqual([
      ['PENDING', null],
      ['PENDING', null],
    ])
    expect(state.history.at(-1)).toEqual({ status: 'PENDING', at: 9, event: 'rewound' })
  })

  it('takes one missing claim back and a COMPLETED intent to FILLED, keeping the rest', () => {
    const state = rewindLifecycle(completed(), { fill: false, claimChainIds: [42161] }, 9)
    expect(state.status).toBe('FILLED')
    expect(state.fill.txHash).toBe(A)
    expect(state.claims.map((c) => [c.chainId, c.status, c.txHash])).toEqual([
      [10, 'COMPLETED', B],
      [42161, 'PENDING', null],
    ])
    expect(state.history.at(-1)).toEqual({ status: 'FILLED', at: 9, event: 'rewound' })
  })

  it('leaves final FAILED and EXPIRED intents as they are', () => {
    const failed = applyIntentEvent(
      initialLifecycle([10], 1) as LifecycleState & { status: 'PENDING' },
      { type: 'failed', reason: 'x', step: 'fill' },
      2,
    )
    expect(rewindLifecycle(failed, { fill: true, claimChainIds: [10] }, 9)).toBe(failed)
  })
})
