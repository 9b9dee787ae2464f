import { describe, expect, it } from 'vitest'
import { createEventBus } from '../events/eventBus'
import { createIntentStore } from '../intents/intentStore'
import type { SignedIntent } from '../intents/types'
import { createExplorer } from './createExplorer'

const sponsor = '0x00000000000000000000000000000000000000a1' as const

describe('createExplorer: intents newest first, paged', () => {
  it('pages by cursor, stays right while intents arrive, and finds an intent by id', async () => {
    let now = 1_000
    const store = createIntentStore<SignedIntent>({ now: () => now, events: createEventBus() })
    const add = (n: number) =>
      store.create({
        intentId: null,
        sponsor,
        recipient: sponsor,
        destinationChainId: 8453,
        fillDeadline: 2_000,
        dedupeKey: `k${n}`,
        payload: {
          intentOp: {
            nonce: String(n),
            elements: [{ chainId: '10', idsAndAmounts: [['1', '2']], mandate: { tokenOut: [] } }],
          },
          originSignatures: ['0x'],
          destinationSignature: '0x',
          setupOps: [],
        } as unknown as SignedIntent,
        originChainIds: [10],
      })
    const created: string[] = []
    for (let n = 0; n < 7; n++) {
      now += 1
      created.push((await add(n)).id)
    }
    const explorer = createExplorer({
      intents: store,
      quotes: { list: () => [], ttlSeconds: 300 },
      chains: [],
      clock: { now: () => now, nowMs: () => now * 1000 },
    })
    const first = await explorer.listIntents({ limit: 3 })
    expect(first.total).toBe(7)
    expect(first.intents.map((i) => i.id)).toEqual(created.slice(4).reverse())
    // A new intent arrives between two pages: the next page still follows the first one.
    now += 1
    const newest = (await add(99)).id
    const second = await explorer.listIntents({ limit: 3, cursor: first.nextCursor! })
    expect(second.intents.map((i) => i.id)).toEqual(created.slice(1, 4).reverse())
    const third = await explorer.listIntents({ limit: 3, cursor: second.nextCursor! })
    expect(third.intents.map((i) => i.id)).toEqual([created[0]])
    expect(third.nextCursor).toBeNull()
    expect((await explorer.listIntents({ limit: 1 })).intents[0]?.id).toBe(newest)
    const detail = await explorer.getIntent(created[2]!)
    expect(detail?.timeline.map((s) => s.step)).toEqual(['submitted', 'fill', 'claim'])
    expect(detail?.inputs[0]).toMatchObject({ chainId: 10, amount: '2' })
    expect(await explorer.getIntent('nope')).toBeUndefined()
  })
})
