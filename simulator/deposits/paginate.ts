/** Paging of a list: at most `limit` items (default 20) after `cursor` (the previous page's `nextCursor`). */
export type PageQuery = { limit?: number | undefined; cursor?: string | undefined }

/** One page of {@link paginate}: `nextCursor` is null on the last page. */
export type Page<item> = { items: item[]; nextCursor: string | null }

/**
 * Pages items newest first by their `seq`: the cursor is the `seq` of the last item of the
 * previous page, so a page stays stable while newer items are added.
 *
 * @example
 * const first = paginate(deposits, { limit: 3 })
 * const second = paginate(deposits, { limit: 3, cursor: first.nextCursor ?? undefined })
 */
export function paginate<item extends { seq: number }>(
  items: Iterable<item>,
  query: PageQuery = {},
): Page<item> {
  const limit = query.limit ?? 20
  const before = query.cursor === undefined ? Number.POSITIVE_INFINITY : Number(query.cursor)
  const older = [...items].filter((item) => item.seq < before).sort((a, b) => b.seq - a.seq)
  const page = older.slice(0, limit)
  const last = page.at(-1)
  return { items: page, nextCursor: older.length > limit && last ? String(last.seq) : null }
}
