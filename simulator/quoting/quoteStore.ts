import type { Faults } from '../faults/faults'
import type { Clock } from '../util/clock'
import { randomHex } from '../util/random'
import { QuoteStoreFullError } from './errors'

/**
 * How a store keeps its quotes: each as a string (V8 keeps a one-byte string at one byte a
 * character), turned back into the quote when it is read. Without one a store keeps the values
 * as they are and counts each at {@link QUOTE_ENTRY_BYTES} only.
 */
export type QuoteCodec<T> = {
  encode(quote: T): string
  decode(data: string): T
}

/** Parameters of {@link createQuoteStore}. */
export type CreateQuoteStoreParameters<T> = {
  clock: Clock
  /** Lifetime of a quote in seconds (`--quote-ttl`, default 300). */
  ttlSeconds: number
  /** Injected faults (`quotes.no-404-after-expiry`). */
  faults?: Pick<Faults, 'has'> | undefined
  /** How quotes are kept (the blanc store: compressed JSON, simulator/quoting/quoteCodec.ts). */
  codec?: QuoteCodec<T> | undefined
  /**
   * Memory budget of the live quotes, in bytes (default {@link DEFAULT_QUOTE_STORE_BYTES}).
   * No live quote is ever forgotten to make room: once the budget is reached, `put` throws
   * {@link QuoteStoreFullError} (503 QUOTE_STORE_FULL with `Retry-After`) until quotes expire.
   */
  maxBytes?: number | undefined
  /** How often expired quotes are swept on a timer, in ms of real time (default 10 s; 0 = never). */
  sweepIntervalMs?: number | undefined
}

/** Default interval of the expired-quote sweep: 10 s. */
export const DEFAULT_SWEEP_INTERVAL_MS = 10_000

/**
 * Default memory budget of the live quotes: 512 MiB. With the service's own ~250 MB that keeps
 * the service under 1 GB of RSS at any quote rate; the fastest sustained blanc rate measured
 * (scripts/bench/quoteMemory.ts, BENCHMARKS.md) stays well inside it for a whole 300 s lifetime.
 */
export const DEFAULT_QUOTE_STORE_BYTES = 512 * 1024 * 1024

/**
 * Heap a kept quote costs beside its encoded string: the map's entry, the intent id (a 34-char
 * string), the entry object and the string's own header (measured: scripts/bench/quoteMemory.ts).
 */
export const QUOTE_ENTRY_BYTES = 200

/** A stored quote: the full intent stays on the server (spec: Differences between alps and blanc). */
export type StoredQuote<T> = { intentId: string; expiresAt: number; readonly quote: T }

/** The blanc quote store: in memory only, as the spec's restart rule requires. */
export type QuoteStore<T> = {
  readonly ttlSeconds: number
  /**
   * Stores a quote under a fresh intent id, expiring `ttlSeconds` from now on the devnet clock.
   * Throws {@link QuoteStoreFullError} when the memory budget is reached (nothing is forgotten).
   */
  put(quote: T): StoredQuote<T>
  /** The quote, or undefined once it expired, was consumed, or the store was reset. */
  get(intentId: string): StoredQuote<T> | undefined
  /**
   * Takes the quote out of the store: a second consume of the same id answers undefined, so a
   * quote is submitted at most once (facts §1: 404 once the quote was already submitted).
   */
  consume(intentId: string): StoredQuote<T> | undefined
  /** Puts a consumed quote back, for a submission refused before anything was sent (never refused). */
  restore(stored: StoredQuote<T>): void
  /** Forgets every quote, as a restart would (spec: States, rule 3). */
  reset(): void
  /** Quotes kept (expired ones not yet swept included). */
  readonly size: number
  /** Bytes the kept quotes are counted at (what the budget is checked against). */
  readonly bytes: number
  /** The memory budget, in bytes. */
  readonly maxBytes: number
  /**
   * Every quote kept, oldest first, expired ones not yet swept included (the explorer lists
   * them). A listed quote is decoded only when its `quote` is read.
   */
  list(): StoredQuote<T>[]
  /** Forgets every expired quote now (the timer calls it too). */
  sweep(): void
  /** Stops the sweep timer (the timer is unref'd, so it never keeps the process alive). */
  close(): void
}

/** What the store keeps per quote: when it expires, and the quote (encoded when there is a codec). */
type Entry = { expiresAt: number; data: unknown }

/**
 * Creates the blanc quote store. Expiry follows the devnet clock, so advancing the clock
 * expires quotes (spec: States and transitions, rule 3). There is no count cap: a quote answers
 * until its `expiresAt`; what bounds the store is its memory budget, and reaching it refuses new
 * quotes rather than dropping live ones.
 *
 * @example
 * const quotes = createQuoteStore<Intent>({ clock, ttlSeconds: 300 })
 * const { intentId } = quotes.put(intent)
 */
export function createQuoteStore<T>({
  clock,
  ttlSeconds,
  faults,
  codec,
  maxBytes = DEFAULT_QUOTE_STORE_BYTES,
  sweepIntervalMs = DEFAULT_SWEEP_INTERVAL_MS,
}: CreateQuoteStoreParameters<T>): QuoteStore<T> {
  // Fault: quotes outlive their lifetime, so a late submit is not 404.
  const expired = (entry: Entry) =>
    clock.now() >= entry.expiresAt && !faults?.has('quotes.no-404-after-expiry')
  const weigh = (entry: Entry) =>
    QUOTE_ENTRY_BYTES + (typeof entry.data === 'string' && codec ? entry.data.length : 0)
  const decode = (entry: Entry) => (codec ? codec.decode(entry.data as string) : (entry.data as T))
  const view = (intentId: string, entry: Entry): StoredQuote<T> => {
    let quote: T | undefined
    let decoded = false
    return {
      intentId,
      expiresAt: entry.expiresAt,
      get quote() {
        if (!decoded) {
          quote = decode(entry)
          decoded = true
        }
        return quote as T
      },
    }
  }

  const quotes = new Map<string, Entry>()
  /** Consumed quotes' entries by id, so `restore` puts back the same bytes without encoding again. */
  const taken = new WeakMap<StoredQuote<T>, Entry>()
  let bytes = 0

  const forget = (intentId: string, entry: Entry) => {
    quotes.delete(intentId)
    bytes -= weigh(entry)
  }
  const keep = (intentId: string, entry: Entry) => {
    quotes.set(intentId, entry)
    bytes += weigh(entry)
  }

  function live(intentId: string): Entry | undefined {
    const entry = quotes.get(intentId)
    if (!entry) return undefined
    if (expired(entry)) {
      forget(intentId, entry)
      return undefined
    }
    return entry
  }

  /**
   * Forgets expired quotes from the oldest on, stopping at the first live one: quotes are kept in
   * the order they were made, and so (with one lifetime) in the order they expire, so each put
   * does O(1) work on average. A quote restored out of order, or made before the clock was moved
   * back, may wait longer to be forgotten, but `live` never hands out an expired one.
   */
  function sweep() {
    for (const [id, entry] of quotes) {
      if (!expired(entry)) return
      forget(id, entry)
    }
  }

  /** Every expired quote, in any order (a quote restored or made before a clock move included). */
  function sweepAll() {
    for (const [id, entry] of quotes) if (expired(entry)) forget(id, entry)
  }
  // Without it, quotes expired after a load ends would stay in memory until the next quote.
  const timer = sweepIntervalMs > 0 ? setInterval(sweepAll, sweepIntervalMs) : undefined
  timer?.unref()

  /** Seconds until the oldest kept quote expires and frees its room (at least 1). */
  function secondsUntilRoom(): number {
    let soonest = Number.POSITIVE_INFINITY
    for (const entry of quotes.values()) {
      soonest = Math.min(soonest, entry.expiresAt)
      break // kept in the order made: the first expires first
    }
    return Math.max(1, Math.ceil(soonest - clock.now()))
  }

  return {
    ttlSeconds,
    put(quote) {
      // Sweeping on write keeps memory bounded by the quotes of one lifetime, with no timer.
      sweep()
      const entry: Entry = {
        expiresAt: clock.now() + ttlSeconds,
        data: codec ? codec.encode(quote) : quote,
      }
      if (bytes + weigh(entry) > maxBytes) {
        sweepAll()
        if (bytes + weigh(entry) > maxBytes)
          throw new QuoteStoreFullError({
            maxBytes,
            quotes: quotes.size,
            retryAfterSeconds: secondsUntilRoom(),
          })
      }
      const intentId = `0x${randomHex(16)}`
      keep(intentId, entry)
      return { intentId, expiresAt: entry.expiresAt, quote }
    },
    get(intentId) {
      const entry = live(intentId)
      return entry ? view(intentId, entry) : undefined
    },
    consume(intentId) {
      const entry = live(intentId)
      if (!entry) return undefined
      forget(intentId, entry)
      const stored = view(intentId, entry)
      taken.set(stored, entry)
      return stored
    },
    restore(stored) {
      // A quote put back was counted before it was taken: it never makes the store refuse.
      const entry = taken.get(stored) ?? {
        expiresAt: stored.expiresAt,
        data: codec ? codec.encode(stored.quote) : stored.quote,
      }
      if (!quotes.has(stored.intentId)) keep(stored.intentId, entry)
    },
    reset() {
      quotes.clear()
      bytes = 0
    },
    get size() {
      return quotes.size
    },
    get bytes() {
      return bytes
    },
    maxBytes,
    list: () => Array.from(quotes, ([intentId, entry]) => view(intentId, entry)),
    sweep: sweepAll,
    close() {
      if (timer) clearInterval(timer)
    },
  }
}
