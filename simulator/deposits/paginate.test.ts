import { expect, test } from 'vitest'
import { paginate } from './paginate'

const items = [3, 1, 5, 2, 4].map((seq) => ({ seq }))

test('newest first by seq; the cursor is the last seq of the page; the last page has no cursor', () => {
  const first = paginate(items, { limit: 2 })
  expect(first).toEqual({ items: [{ seq: 5 }, { seq: 4 }], nextCursor: '4' })
  const second = paginate(items, { limit: 2, cursor: first.nextCursor! })
  expect(second).toEqual({ items: [{ seq: 3 }, { seq: 2 }], nextCursor: '2' })
  expect(paginate(items, { limit: 2, cursor: '2' })).toEqual({ items: [{ seq: 1 }], nextCursor: null })
  expect(paginate(items, { limit: 5 }).nextCursor).toBeNull()
})

test('default limit 20; items added after a page do not shift the next one', () => {
  const many = Array.from({ length: 25 }, (_, i) => ({ seq: i + 1 }))
  const first = paginate(many)
  expect(first.items).toHaveLength(20)
  many.push({ seq: 26 })
  expect(paginate(many, { cursor: first.nextCursor! }).items.map((i) => i.seq)).toEqual([5, 4, 3, 2, 1])
})
