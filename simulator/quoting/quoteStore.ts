import type { Clock } from '../util/clock'
import { randomHex } from '../util/random'
import { QuoteStoreFullError } from './errors'

/**
 * How a store keeps its quotes: the routes of one quote together as one string (V8 keeps a
 * one-byte string at one byte a character), turned back into the routes when one is read.
 * Without one a store keeps the values as they are and counts each group at
 * {@link QUOTE_ENTRY_BYTES} only.
 */
export type QuoteCodec<T> = {
  encode(quotes: readonly T[]): string
  decode(data: string): T[]
}

/** Parameters of {@link createQuoteStore}. */
export type CreateQuoteStoreParameters<T> = {
  clock: Clock
  /** Lifetime of a quote in seconds (`--quote-ttl`, default 300). */
  ttlSeconds: number
  /**
   * Whether a stored quote has expired at `now` (default: once `now` reaches its `expiresAt`);
   * the composition root may decorate it (simulator/faultInjection/quoting.ts).
   */
  isExpired?: ((stored: { expiresAt: number }, now: number) => boolean) | undefined
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
 * Heap a kept group of quotes (one `putAll`) costs beside its encoded string: the map's entry,
 * its key (a 32-char string), the entry object and the string's own header
 * (scripts/bench/quoteMemory.ts).
 */
export const QUOTE_ENTRY_BYTES = 200

/** Most quotes of one group (one bit each of the group's taken mask). */
const GROUP_SIZE = 30

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
export type StoredQuote<T> = { intentId: string; expiresAt: number; readonly quote: T }

/** The blanc quote store: in memory only, as the spec's restart rule requires. */
export type QuoteStore<T> = {
  readonly ttlSeconds: number
  /**
   * Stores a quote under a fresh intent id, expiring `ttlSeconds` from now on the devnet clock.
   * Throws {@link QuoteStoreFullError} when the memory budget is reached (nothing is forgotten).
   */
  put(quote: T): StoredQuote<T>
  /**
   * Stores the routes of one quote together (one entry, one encoded string: they share most of
   * their text), each under its own intent id. All are kept, or none (QuoteStoreFullError).
   */
  putAll(quotes: readonly T[]): StoredQuote<T>[]
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
  /** Quotes kept, not yet consumed (expired ones not yet swept included). */
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

/**
 * What the store keeps per group (one `putAll`): when it expires, the quotes (encoded when there
 * is a codec), how many, and which were consumed (bit i: quote i). A quote's intent id is the
 * group's key and its index, as two hex digits.
 */
type Entry = { expiresAt: number; data: unknown; count: number; taken: number }

const idOf = (key: string, index: number) => `${key}${index.toString(16).padStart(2, '0')}`
const isTaken = (entry: Entry, index: number) => (entry.taken & (1 << index)) !== 0
const remaining = (entry: Entry) => {
  let n = 0
  for (let i = 0; i < entry.count; i++) if (!isTaken(entry, i)) n++
  return n
}

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
  isExpired = hasExpired,
  codec,
  maxBytes = DEFAULT_QUOTE_STORE_BYTES,
  sweepIntervalMs = DEFAULT_SWEEP_INTERVAL_MS,
}: CreateQuoteStoreParameters<T>): QuoteStore<T> {
  const expired = (entry: Entry) => isExpired(entry, clock.now())
  const weigh = (entry: Entry) =>
    QUOTE_ENTRY_BYTES + (typeof entry.data === 'string' && codec ? entry.data.length : 0)
  const decodeAll = (entry: Entry) => (codec ? codec.decode(entry.data as string) : (entry.data as T[]))
  const view = (key: string, entry: Entry, index: number): StoredQuote<T> => {
    let quote: T | undefined
    let decoded = false
    return {
      intentId: idOf(key, index),
      expiresAt: entry.expiresAt,
      get quote() {
        if (!decoded) {
          quote = decodeAll(entry)[index]
          decoded = true
        }
        return quote as T
      },
    }
  }

  const groups = new Map<string, Entry>()
  /** Consumed quotes' groups, so `restore` can put a quote back in its group. */
  const takenFrom = new WeakMap<StoredQuote<T>, Entry>()
  let bytes = 0
  let size = 0

  const forget = (key: string, entry: Entry) => {
    groups.delete(key)
    bytes -= weigh(entry)
    size -= remaining(entry)
  }
  const keep = (key: string, entry: Entry) => {
    groups.set(key, entry)
    bytes += weigh(entry)
    size += remaining(entry)
  }

  /** The live group and index of an intent id, or undefined (unknown, consumed or expired). */
  function live(intentId: string): { key: string; entry: Entry; index: number } | undefined {
    if (intentId.length !== 34) return undefined
    const key = intentId.slice(0, 32)
    const index = Number.parseInt(intentId.slice(32), 16)
    const entry = groups.get(key)
    if (!entry || !(index < entry.count) || isTaken(entry, index)) return undefined
    if (expired(entry)) {
      forget(key, entry)
      return undefined
    }
    return { key, entry, index }
  }

  /**
   * Forgets expired groups from the oldest on, stopping at the first live one: groups are kept in
   * the order they were made, and so (with one lifetime) in the order they expire, so each put
   * does O(1) work on average. A group restored out of order, or made before the clock was moved
   * back, may wait longer to be forgotten, but `live` never hands out an expired one.
   */
  function sweep() {
    for (const [key, entry] of groups) {
      if (!expired(entry)) return
      forget(key, entry)
    }
  }

  /** Every expired group, in any order (one restored or made before a clock move included). */
  function sweepAll() {
    for (const [key, entry] of groups) if (expired(entry)) forget(key, entry)
  }
  // Without it, quotes expired after a load ends would stay in memory until the next quote.
  const timer = sweepIntervalMs > 0 ? setInterval(sweepAll, sweepIntervalMs) : undefined
  timer?.unref()

  /** Seconds until the oldest kept group expires and frees its room (at least 1). */
  function secondsUntilRoom(): number {
    let soonest = Number.POSITIVE_INFINITY
    for (const entry of groups.values()) {
      soonest = entry.expiresAt
      break // kept in the order made: the first expires first
    }
    return Math.max(1, Math.ceil(soonest - clock.now()))
  }

  function putGroup(quotes: readonly T[]): StoredQuote<T>[] {
    const entry: Entry = {
      expiresAt: clock.now() + ttlSeconds,
      data: codec ? codec.encode(quotes) : [...quotes],
      count: quotes.length,
      taken: 0,
    }
    if (bytes + weigh(entry) > maxBytes) {
      sweepAll()
      if (bytes + weigh(entry) > maxBytes)
        throw new QuoteStoreFullError({ maxBytes, quotes: size, retryAfterSeconds: secondsUntilRoom() })
    }
    const key = `0x${randomHex(15)}`
    keep(key, entry)
    return quotes.map((quote, index) => ({ intentId: idOf(key, index), expiresAt: entry.expiresAt, quote }))
  }

  function putAll(quotes: readonly T[]): StoredQuote<T>[] {
    // Sweeping on write keeps memory bounded by the quotes of one lifetime, with no timer.
    sweep()
    if (quotes.length <= GROUP_SIZE) return putGroup(quotes)
    const made: StoredQuote<T>[] = []
    try {
      for (let i = 0; i < quotes.length; i += GROUP_SIZE)
        made.push(...putGroup(quotes.slice(i, i + GROUP_SIZE)))
    } catch (error) {
      for (const stored of made) consume(stored.intentId)
      throw error
    }
    return made
  }

  function consume(intentId: string): StoredQuote<T> | undefined {
    const found = live(intentId)
    if (!found) return undefined
    const { key, entry, index } = found
    const stored = view(key, entry, index)
    entry.taken |= 1 << index
    size--
    if (remaining(entry) === 0) {
      groups.delete(key)
      bytes -= weigh(entry)
    }
    takenFrom.set(stored, entry)
    return stored
  }

  return {
    ttlSeconds,
    put: (quote) => putAll([quote])[0] as StoredQuote<T>,
    putAll,
    get(intentId) {
      const found = live(intentId)
      return found ? view(found.key, found.entry, found.index) : undefined
    },
    consume,
    restore(stored) {
      // A quote put back was counted before it was taken: it never makes the store refuse.
      const key = stored.intentId.slice(0, 32)
      const index = Number.parseInt(stored.intentId.slice(32), 16)
      const entry = takenFrom.get(stored)
      if (!entry || !isTaken(entry, index)) return
      takenFrom.delete(stored)
      if (groups.get(key) === entry) {
        entry.taken &= ~(1 << index)
        size++
        return
      }
      entry.taken &= ~(1 << index)
      if (!groups.has(key)) keep(key, entry)
    },
    reset() {
      groups.clear()
      bytes = 0
      size = 0
    },
    get size() {
      return size
    },
    get bytes() {
      return bytes
    },
    maxBytes,
    list: () => {
      const all: StoredQuote<T>[] = []
      for (const [key, entry] of groups)
        for (let index = 0; index < entry.count; index++)
          if (!isTaken(entry, index)) all.push(view(key, entry, index))
      return all
    },
    sweep: sweepAll,
    close() {
      if (timer) clearInterval(timer)
    },
  }
}
