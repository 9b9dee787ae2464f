import type { Faults } from '../faults'
import type { Clock } from '../services'
import { randomHex } from '../util/random'

/** Parameters of {@link createQuoteStore}. */
export type CreateQuoteStoreParameters = {
  clock: Clock
  /** Lifetime of a quote in seconds (`--quote-ttl`, default 300). */
  ttlSeconds: number
  /** Injected faults (`quotes.no-404-after-expiry`). */
  faults?: Pick<Faults, 'has'> | undefined
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
  faults,
}: CreateQuoteStoreParameters): QuoteStore<T> {
  // Fault: quotes outlive their lifetime, so a late submit is not 404.
  const expired = (stored: StoredQuote<T>) =>
    clock.now() >= stored.expiresAt && !faults?.has('quotes.no-404-after-expiry')

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

  function sweep() {
    for (const [id, stored] of quotes) if (expired(stored)) quotes.delete(id)
  }

  return {
    ttlSeconds,
    put(quote) {
      // Sweeping on write keeps memory bounded by the quotes of one lifetime, with no timer.
      if (quotes.size > 0 && quotes.size % 256 === 0) sweep()
      const intentId = `0x${randomHex(16)}`
      const stored = { intentId, expiresAt: clock.now() + ttlSeconds, quote }
      quotes.set(intentId, stored)
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
    },
    reset() {
      quotes.clear()
    },
    get size() {
      return quotes.size
    },
  }
}
