import type { Clock } from '../util/clock'
import { randomHex } from '../util/random'

/** Parameters of {@link createQuoteStore}. */
export type CreateQuoteStoreParameters = {
  clock: Clock
  /** Lifetime of a quote in seconds (`--quote-ttl`, default 300). */
  ttlSeconds: number
  /**
   * Whether a stored quote has expired at `now` (default: once `now` reaches its `expiresAt`);
   * the composition root may decorate it (simulator/faultInjection/quoting.ts).
   */
  isExpired?: ((stored: { expiresAt: number }, now: number) => boolean) | undefined
  /**
   * Most quotes kept (default {@link DEFAULT_MAX_QUOTES}); beyond it the oldest are forgotten, as
   * if expired (a submit answers 404). A stored blanc route takes ~2.5 KB of heap
   * (scripts/bench/quoteMemory.ts), and a load test quoting 800 times a second with 4 routes would
   * otherwise hold ~1M routes (GBs) for a 300 s lifetime.
   */
  maxQuotes?: number | undefined
  /** How often expired quotes are swept on a timer, in ms of real time (default 10 s; 0 = never). */
  sweepIntervalMs?: number | undefined
}

/** Default interval of the expired-quote sweep: 10 s. */
export const DEFAULT_SWEEP_INTERVAL_MS = 10_000

/**
 * Quotes a store keeps at most, by default (~50 MB of blanc routes): with the service's own
 * ~200 MB, a store full of live quotes stays inside the 300 MB idle budget (issue 13).
 */
export const DEFAULT_MAX_QUOTES = 20_000

/**
 * Whether a stored quote has expired at `now`: from its `expiresAt` on (spec: States, rule 3).
 *
 * @example
 * hasExpired({ expiresAt: 100 }, 100) // true
 */
export function hasExpired(stored: { expiresAt: number }, now: number): boolean {
  return now >= stored.expiresAt
}

/** A stored quote: the full intent stays on the server (spec: Differences between alps and blanc). */
export type StoredQuote<T> = { intentId: string; expiresAt: number; quote: T }

/** The blanc quote store: in memory only, as the spec's restart rule requires. */
export type QuoteStore<T> = {
  readonly ttlSeconds: number
  /** Stores a quote under a fresh intent id, expiring `ttlSeconds` from now on the devnet clock. */
  put(quote: T): StoredQuote<T>
  /** The quote, or undefined once it expired, was consumed, or the store was reset. */
  get(intentId: string): StoredQuote<T> | undefined
  /**
   * Takes the quote out of the store: a second consume of the same id answers undefined, so a
   * quote is submitted at most once (facts §1: 404 once the quote was already submitted).
   */
  consume(intentId: string): StoredQuote<T> | undefined
  /** Puts a consumed quote back, for a submission refused before anything was sent. */
  restore(stored: StoredQuote<T>): void
  /** Forgets every quote, as a restart would (spec: States, rule 3). */
  reset(): void
  readonly size: number
  /** Every quote kept, oldest first, expired ones not yet swept included (the explorer lists them). */
  list(): StoredQuote<T>[]
  /** Forgets every expired quote now (the timer calls it too). */
  sweep(): void
  /** Stops the sweep timer (the timer is unref'd, so it never keeps the process alive). */
  close(): void
}

/**
 * Creates the blanc quote store. Expiry follows the devnet clock, so advancing the clock
 * expires quotes (spec: States and transitions, rule 3).
 *
 * @example
 * const quotes = createQuoteStore<Intent>({ clock, ttlSeconds: 300 })
 * const { intentId } = quotes.put(intent)
 */
export function createQuoteStore<T>({
  clock,
  ttlSeconds,
  isExpired = hasExpired,
  maxQuotes = DEFAULT_MAX_QUOTES,
  sweepIntervalMs = DEFAULT_SWEEP_INTERVAL_MS,
}: CreateQuoteStoreParameters): QuoteStore<T> {
  const expired = (stored: StoredQuote<T>) => isExpired(stored, clock.now())

  const quotes = new Map<string, StoredQuote<T>>()

  function live(intentId: string): StoredQuote<T> | undefined {
    const stored = quotes.get(intentId)
    if (!stored) return undefined
    if (expired(stored)) {
      quotes.delete(intentId)
      return undefined
    }
    return stored
  }

  /**
   * Forgets expired quotes from the oldest on, stopping at the first live one: quotes are kept in
   * the order they were made, and so (with one lifetime) in the order they expire, so each put
   * does O(1) work on average. A quote restored out of order, or made before the clock was moved
   * back, may wait longer to be forgotten, but `live` never hands out an expired one.
   */
  function sweep() {
    for (const [id, stored] of quotes) {
      if (!expired(stored)) return
      quotes.delete(id)
    }
  }

  /** Every expired quote, in any order (a quote restored or made before a clock move included). */
  function sweepAll() {
    for (const [id, stored] of quotes) if (expired(stored)) quotes.delete(id)
  }
  // Without it, quotes expired after a load ends would stay in memory until the next quote.
  const timer = sweepIntervalMs > 0 ? setInterval(sweepAll, sweepIntervalMs) : undefined
  timer?.unref()

  /** Keeps at most `maxQuotes`: the oldest go first. */
  function bound() {
    for (const id of quotes.keys()) {
      if (quotes.size <= maxQuotes) return
      quotes.delete(id)
    }
  }

  return {
    ttlSeconds,
    put(quote) {
      // Sweeping on write keeps memory bounded by the quotes of one lifetime, with no timer.
      sweep()
      const intentId = `0x${randomHex(16)}`
      const stored = { intentId, expiresAt: clock.now() + ttlSeconds, quote }
      quotes.set(intentId, stored)
      bound()
      return stored
    },
    get: live,
    consume(intentId) {
      const stored = live(intentId)
      if (stored) quotes.delete(intentId)
      return stored
    },
    restore(stored) {
      quotes.set(stored.intentId, stored)
      bound()
    },
    reset() {
      quotes.clear()
    },
    get size() {
      return quotes.size
    },
    list: () => [...quotes.values()],
    sweep: sweepAll,
    close() {
      if (timer) clearInterval(timer)
    },
  }
}
