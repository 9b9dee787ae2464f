import { expect, test } from 'vitest'
import { chooseElements } from './chooseElements'

const routes = {
  routes: [
    { fundingMethod: 'COMPACT', origin: 8453, fee: 1 },
    { fundingMethod: 'COMPACT', origin: 10, fee: 2 },
    { fundingMethod: 'PERMIT2', origin: 10, fee: 3 },
  ],
}

test('the element the client picked is read at its recorded place, whatever the order; the answer is not changed', () => {
  const { json, unmatched } = chooseElements(routes, {
    '/routes/0': { '/origin': { equals: 10 }, '/fundingMethod': { equals: 'PERMIT2' } },
  })
  expect(unmatched).toEqual([])
  expect((json as typeof routes).routes.map((r) => r.fee)).toEqual([3, 2, 1])
  expect(routes.routes.map((r) => r.fee)).toEqual([1, 2, 3])
})

test('the element at the recorded place is kept when it matches', () => {
  const { json } = chooseElements(routes, { '/routes/1': { '/origin': { equals: 10 } } })
  expect(json).toBe(routes)
})

test('no element matches: said, with what was looked for and what each element offered', () => {
  const { unmatched } = chooseElements(routes, { '/routes/1': { '/origin': { equals: 42 } } })
  expect(unmatched).toEqual([
    {
      place: '/routes/1',
      message:
        'no element of /routes is the one the client picked (/origin 42); the answer lists 3: 0: /origin=8453; 1: /origin=10; 2: /origin=10',
    },
  ])
  expect(chooseElements({ routes: 'none' }, { '/routes/0': {} }).unmatched[0]?.message).toBe(
    '/routes is not a list in the answer',
  )
})
