import { describe, expect, it } from 'vitest'
import { createEventBus, type DomainEvent, type PublishedEvent } from './eventBus'

const step = (id: string): DomainEvent => ({
  type: 'intent',
  id,
  intentId: null,
  step: 'submitted',
  status: 'PENDING',
  chainId: null,
  transactionHash: null,
  reason: null,
  at: 1,
})

describe('createEventBus', () => {
  it('numbers events in publication order and delivers them to every subscriber until it unsubscribes', () => {
    const bus = createEventBus()
    const a: PublishedEvent[] = []
    const b: PublishedEvent[] = []
    const stopA = bus.subscribe((e) => a.push(e))
    bus.subscribe((e) => b.push(e))
    bus.publish(step('1'))
    stopA()
    bus.publish(step('2'))
    expect(a.map((e) => e.seq)).toEqual([1])
    expect(b.map((e) => [e.seq, e.type === 'intent' && e.id])).toEqual([
      [1, '1'],
      [2, '2'],
    ])
    expect(bus.lastSeq).toBe(2)
    expect(bus.subscribers).toBe(1)
  })

  it('replays the kept events after a given seq to a new subscriber, and keeps only the last `keep`', () => {
    const bus = createEventBus({ keep: 2 })
    for (const id of ['1', '2', '3']) bus.publish(step(id))
    const seen: number[] = []
    bus.subscribe((e) => seen.push(e.seq), { after: 0 })
    expect(seen).toEqual([2, 3])
    const later: number[] = []
    bus.subscribe((e) => later.push(e.seq), { after: 2 })
    bus.publish(step('4'))
    expect(later).toEqual([3, 4])
  })

  it('a subscriber that throws reaches neither the publisher nor the other subscribers', () => {
    const errors: unknown[] = []
    const bus = createEventBus({ onListenerError: (e) => errors.push(e) })
    const seen: number[] = []
    bus.subscribe(() => {
      throw new Error('boom')
    })
    bus.subscribe((e) => seen.push(e.seq))
    expect(() => bus.publish(step('1'))).not.toThrow()
    expect(seen).toEqual([1])
    expect(errors).toHaveLength(1)
  })
})
