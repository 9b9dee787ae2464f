import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { createEventBus } from '../events/eventBus'
import { QuoteStoreFullError } from '../quoting/errors'
import { createQuoteStore, QUOTE_ENTRY_BYTES } from '../quoting/quoteStore'
import { StateFileError } from '../util/persistence'
import { createIntentStore, DuplicateIntentError } from './intentStore'
import { applyIntentEvent, IllegalTransitionError, initialLifecycle } from './lifecycle'

/** A clock that moves only when told (the wall clock could tick between a put and its check). */
function manualClock(start = 1_800_000_000) {
  let now = start
  return {
    now: () => now,
    nowMs: () => now * 1000,
    advance(seconds: number) {
      now += seconds
    },
  }
}

const hash = (n: number) => `0x${n.toString(16).padStart(64, '0')}` as const

describe('quoteStore (spec: States, rule 3)', () => {
  it('expires a quote when the devnet clock passes its lifetime', () => {
    const clock = manualClock()
    const quotes = createQuoteStore<{ n: number }>({ clock, ttlSeconds: 300 })
    const { intentId, expiresAt } = quotes.put({ n: 1 })
    expect(expiresAt).toBe(clock.now() + 300)
    expect(quotes.get(intentId)?.quote).toEqual({ n: 1 })
    clock.advance(299)
    expect(quotes.get(intentId)).toBeDefined()
    clock.advance(1)
    expect(quotes.get(intentId)).toBeUndefined()
  })

  it('hands a quote out once, and forgets everything on reset', () => {
    const quotes = createQuoteStore<string>({ clock: manualClock(), ttlSeconds: 60 })
    const a = quotes.put('a')
    const b = quotes.put('b')
    expect(quotes.consume(a.intentId)?.quote).toBe('a')
    expect(quotes.consume(a.intentId)).toBeUndefined()
    quotes.reset()
    expect(quotes.get(b.intentId)).toBeUndefined()
    expect(quotes.size).toBe(0)
  })

  it('forgets expired quotes as new ones are made, oldest first', () => {
    const clock = manualClock()
    const quotes = createQuoteStore<number>({ clock, ttlSeconds: 60 })
    for (let i = 0; i < 10; i++) quotes.put(i)
    clock.advance(30)
    const later = quotes.put(10)
    clock.advance(30) // the first ten expire now; the last one in 30 s
    quotes.put(11)
    expect(quotes.size).toBe(2)
    expect(quotes.get(later.intentId)?.quote).toBe(10)
  })

  it('has no count cap: 100,000 quotes made in a row all answer until their expiresAt', () => {
    const clock = manualClock()
    const quotes = createQuoteStore<number>({ clock, ttlSeconds: 300 })
    const made = Array.from({ length: 100_000 }, (_, n) => quotes.put(n))
    clock.advance(299)
    expect(made.every((m, n) => quotes.get(m.intentId)?.quote === n)).toBe(true)
    clock.advance(1)
    expect(quotes.get(made[99_999]!.intentId)).toBeUndefined()
  })

  it('past its memory budget it refuses new quotes (Retry-After) and forgets none', () => {
    const clock = manualClock()
    const codec = {
      encode: (ns: readonly number[]) => ns.map((n) => 'x'.repeat(n)).join(','),
      decode: (data: string) => data.split(',').map((x) => x.length),
    }
    const quotes = createQuoteStore<number>({
      clock,
      ttlSeconds: 60,
      codec,
      maxBytes: 3 * (QUOTE_ENTRY_BYTES + 100),
    })
    const made = [100, 100, 100].map((n) => quotes.put(n))
    clock.advance(20)
    let refused: unknown
    try {
      quotes.put(100)
    } catch (error) {
      refused = error
    }
    expect(refused).toBeInstanceOf(QuoteStoreFullError)
    expect((refused as QuoteStoreFullError).retryAfterSeconds).toBe(40) // when the oldest expires
    expect((refused as QuoteStoreFullError).data).toMatchObject({ quotes: 3 })
    expect(made.map((m) => quotes.get(m.intentId)?.quote)).toEqual([100, 100, 100])
    // A smaller quote that fits is still taken; a consumed one frees its room and may come back.
    const taken = quotes.consume(made[0]!.intentId)!
    expect(quotes.bytes).toBe(2 * (QUOTE_ENTRY_BYTES + 100))
    const other = quotes.put(50)
    quotes.restore(taken) // put back even over the budget: it was counted when it was made
    expect(quotes.get(taken.intentId)?.quote).toBe(100)
    expect(quotes.get(other.intentId)?.quote).toBe(50)
    // Once the first ones expire there is room again.
    clock.advance(40)
    expect(quotes.put(100).intentId).toMatch(/^0x[0-9a-f]{32}$/)
    quotes.sweep()
    expect(quotes.size).toBe(2)
    expect(quotes.bytes).toBe(QUOTE_ENTRY_BYTES + 50 + QUOTE_ENTRY_BYTES + 100)
  })
})

describe('lifecycle', () => {
  it('walks PENDING → PRECONFIRMED → FILLED → COMPLETED once every claim is mined', () => {
    let s = initialLifecycle([10, 42161], 1)
    s = applyIntentEvent(s, { type: 'fillSent', txHash: hash(1) }, 2)
    expect(s.status).toBe('PRECONFIRMED')
    s = applyIntentEvent(s, { type: 'fillMined', txHash: hash(1), timestamp: 3 }, 3)
    expect(s.status).toBe('FILLED')
    s = applyIntentEvent(s, { type: 'claimMined', chainId: 10, txHash: hash(2), timestamp: 4 }, 4)
    expect(s.status).toBe('FILLED')
    s = applyIntentEvent(s, { type: 'claimMined', chainId: 42161, txHash: hash(3), timestamp: 5 }, 5)
    expect(s.status).toBe('COMPLETED')
    expect(s.history.map((h) => h.status)).toEqual(['PENDING', 'PRECONFIRMED', 'FILLED', 'COMPLETED'])
    expect(s.claims.map((c) => c.status)).toEqual(['COMPLETED', 'COMPLETED'])
  })

  it('refuses illegal transitions, at compile time and at run time', () => {
    const pending = initialLifecycle([10], 1) as ReturnType<typeof initialLifecycle> & { status: 'PENDING' }
    const claimFirst = () =>
      // @ts-expect-error: a PENDING intent cannot have a claim mined before its fill.
      applyIntentEvent(pending, { type: 'claimMined', chainId: 10, txHash: hash(1), timestamp: 1 }, 1)
    expect(claimFirst).toThrow(IllegalTransitionError)
    const failed = applyIntentEvent(pending, { type: 'failed', reason: 'fill reverted', step: 'fill' }, 2)
    expect(() => applyIntentEvent(failed, { type: 'expired' }, 3)).toThrowErrorMatchingInlineSnapshot(`
      [Intent.IllegalTransitionError: An intent in status FAILED cannot take the event 'expired'.

      FAILED accepts: nothing (final)]
    `)
  })

  it('marks every claim EXPIRED when the intent expires unfilled', () => {
    const s = applyIntentEvent(initialLifecycle([1, 10], 1), { type: 'expired' }, 2)
    expect(s.status).toBe('EXPIRED')
    expect(s.claims.every((c) => c.status === 'EXPIRED')).toBe(true)
  })
})

describe('intentStore', () => {
  const input = (key: string) => ({
    intentId: null,
    sponsor: `0x${'11'.repeat(20)}` as const,
    recipient: `0x${'11'.repeat(20)}` as const,
    destinationChainId: 8453,
    fillDeadline: 100,
    dedupeKey: key,
    payload: { note: key },
    originChainIds: [10],
  })

  it('keeps accepted intents and their progress across a restart', async () => {
    const stateDir = await mkdtemp(join(tmpdir(), 'intents-'))
    try {
      const first = createIntentStore({ stateDir, now: () => 1, events: createEventBus() })
      await first.load()
      const a = await first.create(input('a'))
      const b = await first.create(input('b'))
      expect(a.id).toMatch(/^\d+$/)
      await first.apply(a.id, { type: 'fillSent', txHash: hash(9) })
      await first.flush()

      const second = createIntentStore({ stateDir, now: () => 2, events: createEventBus() })
      await second.load()
      expect(second.get(a.id)?.status).toBe('PRECONFIRMED')
      expect(second.get(a.id)?.payload).toEqual({ note: 'a' })
      expect(
        second
          .inFlight()
          .map((r) => r.id)
          .sort(),
      ).toEqual([a.id, b.id].sort())
      await expect(second.create(input('a'))).rejects.toThrow(DuplicateIntentError)
    } finally {
      await rm(stateDir, { recursive: true, force: true })
    }
  })

  it('one JSON file per intent; a crash mid-write (a leftover temp file) loses nothing; a broken file is named', async () => {
    const stateDir = await mkdtemp(join(tmpdir(), 'intents-'))
    try {
      const first = createIntentStore({ stateDir, now: () => 1, events: createEventBus() })
      await first.load()
      const a = await first.create(input('a'))
      await first.flush()
      const dir = join(stateDir, 'intents')
      expect(await readdir(dir)).toEqual([`${a.id}.json`])
      expect(JSON.parse(await readFile(join(dir, `${a.id}.json`), 'utf8'))).toMatchObject({
        id: a.id,
        status: 'PENDING',
      })
      // What a crash between writing the temp file and the rename leaves: the old file, whole.
      await writeFile(join(dir, `${a.id}.json.123.1.tmp`), '{"id":')
      const second = createIntentStore({ stateDir, now: () => 2, events: createEventBus() })
      await second.load()
      expect(second.get(a.id)?.status).toBe('PENDING')

      await writeFile(join(dir, `${a.id}.json`), '{"id":')
      await expect(
        createIntentStore({ stateDir, now: () => 3, events: createEventBus() }).load(),
      ).rejects.toThrow(StateFileError)
    } finally {
      await rm(stateDir, { recursive: true, force: true })
    }
  })

  it('refuses a second submission of the same intent', async () => {
    const store = createIntentStore({ now: () => 1, events: createEventBus() })
    const first = await store.create(input('same'))
    await expect(store.create(input('same'))).rejects.toThrow(
      `This intent was already submitted (id ${first.id}).`,
    )
  })
})
