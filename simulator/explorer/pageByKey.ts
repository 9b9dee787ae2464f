/** A position in a list sorted newest first: the time (unix seconds) and the id, the tie-breaker. */
export type PageKey = { at: number; id: string }

/** The cursor of the page after the item at `key`. */
export const cursorOf = (key: PageKey): string => `${key.at}:${key.id}`

/** The key a cursor names, or undefined when it is not one this module made. */
export function parseCursor(cursor: string): PageKey | undefined {
  const match = /^(\d{1,15}):(.{1,180})$/.exec(cursor)
  return match ? { at: Number(match[1]), id: match[2]! } : undefined
}

/** Orders keys newest first: later time first, then the larger id (ids compared as numbers when both are). */
export function compareNewestFirst(a: PageKey, b: PageKey): number {
  if (a.at !== b.at) return b.at - a.at
  if (a.id.length !== b.id.length) return b.id.length - a.id.length
  return a.id < b.id ? 1 : a.id > b.id ? -1 : 0
}

/**
 * One page of a list sorted newest first ({@link compareNewestFirst}): the first `limit` items
 * older than the cursor's key. The cursor holds the last item's key rather than its position,
 * so the next page is right while new items arrive at the head. Binary search: O(log n + limit).
 *
 * @example
 * const first = pageByKey(sorted, { limit: 50 }, (r) => ({ at: r.createdAt, id: r.id }))
 * const second = pageByKey(sorted, { limit: 50, cursor: first.nextCursor ?? undefined }, keyOf)
 */
export function pageByKey<T>(
  sorted: readonly T[],
  query: { limit?: number | undefined; cursor?: string | undefined },
  keyOf: (item: T) => PageKey,
): { items: T[]; nextCursor: string | null } {
  const limit = query.limit ?? 50
  let start = 0
  const after = query.cursor === undefined ? undefined : parseCursor(query.cursor)
  if (after) {
    let low = 0
    let high = sorted.length
    while (low < high) {
      const mid = (low + high) >>> 1
      if (compareNewestFirst(keyOf(sorted[mid]!), after) <= 0) low = mid + 1
      else high = mid
    }
    start = low
  }
  const items = sorted.slice(start, start + limit)
  const last = items.at(-1)
  return { items, nextCursor: last && start + limit < sorted.length ? cursorOf(keyOf(last)) : null }
}
