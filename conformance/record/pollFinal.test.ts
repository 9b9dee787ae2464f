import { describe, expect, it } from 'vitest'
import { finalStatuses, settlementAtOrPast, settlementInProgress } from './pollFinal'

describe('finalStatuses: where a replayed poll ends', () => {
  it('an intent: any terminal status, and any status past the recorded one', () => {
    const final = finalStatuses({ status: 'PRECONFIRMED' })!['/status'] as { oneOf: string[] }
    expect(final.oneOf).toEqual(
      expect.arrayContaining(['CLAIMED', 'FILLED', 'COMPLETED', 'FAILED', 'EXPIRED']),
    )
    expect(final.oneOf).not.toContain('PENDING')
    expect(final.oneOf).not.toContain('PRECONFIRMED')
    // A terminal status the client saw ends the poll on itself too.
    expect((finalStatuses({ status: 'COMPLETED' })!['/status'] as { oneOf: string[] }).oneOf).toContain(
      'COMPLETED',
    )
  })

  it('a list polled until its elements settle: each listed deposit or webhook event, all final', () => {
    const deposits = finalStatuses({
      deposits: [{ id: 'a', status: 'completed' }, { id: 'b', status: 'processing' }, { id: 'c' }],
      nextCursor: null,
    })!
    expect(Object.keys(deposits)).toEqual(['/deposits/0/status', '/deposits/1/status'])
    expect((deposits['/deposits/0/status'] as { oneOf: string[] }).oneOf).toEqual(
      expect.arrayContaining(['completed', 'failed', 'refunded']),
    )
    expect((deposits['/deposits/1/status'] as { oneOf: string[] }).oneOf).toEqual(
      expect.arrayContaining(['delayed', 'completed', 'failed']),
    )
    expect((deposits['/deposits/1/status'] as { oneOf: string[] }).oneOf).not.toContain('processing')
    const events = finalStatuses({ events: [{ status: 'pending' }] })!
    expect((events['/events/0/status'] as { oneOf: string[] }).oneOf).toEqual(
      expect.arrayContaining(['delivered', 'failed', 'skipped']),
    )
  })

  it('nothing to end on: no status, an empty list, not an object', () => {
    expect(finalStatuses({ deposits: [], nextCursor: null })).toBeUndefined()
    expect(finalStatuses({ balance: '1' })).toBeUndefined()
    expect(finalStatuses([{ status: 'completed' }])).toBeUndefined()
    expect(finalStatuses('COMPLETED')).toBeUndefined()
  })
})

describe('settlementInProgress: an intent status in an answer that is not polled', () => {
  it('any status on the way to completion replays one recorded on that way', () => {
    for (const status of ['PENDING', 'PRECONFIRMED', 'FILLED', 'CLAIMED', 'COMPLETED'])
      expect(settlementInProgress(status)).toEqual({
        oneOf: ['PENDING', 'PRECONFIRMED', 'CLAIMED', 'FILLED', 'COMPLETED'],
      })
  })

  it('a failure, an expiry, a deposit status or no string is expected as recorded', () => {
    for (const status of ['FAILED', 'EXPIRED', 'processing', 'completed', 1, null])
      expect(settlementInProgress(status)).toBeUndefined()
  })
})

describe('settlementAtOrPast: an intent status in a polled answer the client stopped at', () => {
  it('the recorded status or a later one on the way to completion', () => {
    expect(settlementAtOrPast('PENDING')).toEqual({
      oneOf: ['PENDING', 'PRECONFIRMED', 'CLAIMED', 'FILLED', 'COMPLETED'],
    })
    expect(settlementAtOrPast('PRECONFIRMED')).toEqual({
      oneOf: ['PRECONFIRMED', 'CLAIMED', 'FILLED', 'COMPLETED'],
    })
    expect(settlementAtOrPast('FILLED')).toEqual({ oneOf: ['CLAIMED', 'FILLED', 'COMPLETED'] })
  })

  it('completion, a failure, an expiry, a deposit status or no string is expected as recorded', () => {
    for (const status of ['COMPLETED', 'FAILED', 'EXPIRED', 'processing', 'completed', 1, null])
      expect(settlementAtOrPast(status)).toBeUndefined()
  })
})
