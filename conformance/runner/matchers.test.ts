import { describe, expect, test } from 'vitest'
import { Matcher } from '../scenario/httpStepSchema'
import { applyMatcher, matchAt, readPath } from './matchers'

const at = (doc: unknown, path: string, matcher: Matcher) =>
  applyMatcher(readPath(doc, path), Matcher.parse(matcher), { document: doc })

describe('relational matchers', () => {
  const doc = {
    expires: '1700003600',
    fillDeadline: '1700000600',
    big: '123456789012345678901234567890',
    fee: '7',
    parts: { gas: '3', bridge: '4', swap: '0' },
    usd: { gas: 0.1, bridge: 0.2, total: 0.3 },
    routes: [
      { cost: 1, chains: [10] },
      { cost: 1.5, chains: [10] },
      { cost: 2, chains: [8453] },
    ],
  }

  test('comparisons: exact on integer strings, against a literal or another path', () => {
    expect(at(doc, '/expires', { greaterThan: { path: '/fillDeadline' } }).ok).toBe(true)
    expect(at(doc, '/fillDeadline', { greaterThan: { path: '/expires' } })).toMatchObject({
      ok: false,
      message: expect.stringContaining('not greater than /expires ("1700003600")'),
    })
    expect(at(doc, '/big', { greaterThan: '123456789012345678901234567889' }).ok).toBe(true)
    expect(at(doc, '/big', { greaterThan: '123456789012345678901234567890' }).ok).toBe(false)
    expect(at(doc, '/big', { atLeast: '123456789012345678901234567890' }).ok).toBe(true)
    expect(at(doc, '/fee', { atMost: 7, lessThan: 8 }).ok).toBe(true)
    expect(at(doc, '/fee', { lessThan: 7 }).ok).toBe(false)
    expect(at(doc, '/parts/swap', { atLeast: 0 }).ok).toBe(true)
    expect(at({ a: '-1' }, '/a', { atLeast: 0 }).ok).toBe(false)
    expect(at(doc, '/routes', { greaterThan: 0 })).toMatchObject({ ok: false })
    expect(at(doc, '/fee', { greaterThan: { path: '/nowhere' } })).toMatchObject({ ok: false })
  })

  test('sumOf: integers exactly, USD numbers within 1e-6', () => {
    expect(at(doc, '/fee', { sumOf: ['/parts/gas', '/parts/bridge', '/parts/swap'] }).ok).toBe(true)
    expect(at({ ...doc, fee: '8' }, '/fee', { sumOf: ['/parts/gas', '/parts/bridge'] })).toMatchObject({
      ok: false,
      message: expect.stringContaining('not the sum of /parts/gas ("3") + /parts/bridge ("4")'),
    })
    expect(at(doc, '/usd/total', { sumOf: ['/usd/gas', '/usd/bridge'] }).ok).toBe(true)
    expect(at(doc, '/usd/total', { sumOf: ['/usd/gas'] }).ok).toBe(false)
    expect(at(doc, '/fee', { sumOf: ['/parts/gas', '/missing'] }).ok).toBe(false)
    // `*`: every element there (the gas of each origin chain).
    const gas = { total: 0.6, origin: [{ usd: 0.1 }, { usd: 0.2 }], destination: { usd: 0.3 } }
    expect(at(gas, '/total', { sumOf: ['/origin/*/usd', '/destination/usd'] }).ok).toBe(true)
    expect(at({ ...gas, total: 0.5 }, '/total', { sumOf: ['/origin/*/usd', '/destination/usd'] }).ok).toBe(
      false,
    )
    expect(at({ ...gas, origin: [] }, '/total', { sumOf: ['/origin/*/usd', '/destination/usd'] }).ok).toBe(
      false,
    )
  })

  test('each: every item of a non-empty array, paths relative to the item; ascendingBy', () => {
    expect(at(doc, '/routes', { each: { '/chains/0': { oneOf: [10, 8453] } } }).ok).toBe(true)
    expect(at(doc, '/routes', { each: { '/chains/0': { equals: 10 } } })).toMatchObject({
      ok: false,
      message: 'item 2: /chains/0 is 8453, not 10',
    })
    expect(at({ routes: [] }, '/routes', { each: { '/a': { exists: true } } }).ok).toBe(false)
    expect(at({ m: {} }, '/m', { each: { '/a': { exists: true } } }).ok).toBe(false)
    // An object: its values (a map keyed by token address).
    const byToken = {
      m: { '0xA': { need: '3', have: '1', miss: '2' }, '0xB': { need: '3', have: '3', miss: '1' } },
    }
    expect(at(byToken, '/m', { each: { '/need': { sumOf: ['/have', '/miss'] } } })).toMatchObject({
      ok: false,
      message: expect.stringContaining('item 0xB: /need is "3", not the sum of /have ("3") + /miss ("1")'),
    })
    expect(at(doc, '/routes', { ascendingBy: '/cost' }).ok).toBe(true)
    const reversed = { routes: [...doc.routes].reverse() }
    expect(at(reversed, '/routes', { ascendingBy: '/cost' })).toMatchObject({
      ok: false,
      message: expect.stringContaining('item 0 has 2, item 1 1.5'),
    })
    // `*`: the sum over every field there (a route's fee types).
    const fees = (gas: number, bridge: number) => ({ fees: { gas: { usd: gas }, bridge: { usd: bridge } } })
    expect(at({ r: [fees(0.1, 0.5), fees(0.5, 0.2)] }, '/r', { ascendingBy: '/fees/*/usd' }).ok).toBe(true)
    expect(at({ r: [fees(0.5, 0.5), fees(0.5, 0.2)] }, '/r', { ascendingBy: '/fees/*/usd' })).toMatchObject({
      ok: false,
      message: expect.stringContaining('item 0 has 1, item 1 0.7'),
    })
    expect(at({ r: [{ fees: {} }] }, '/r', { ascendingBy: '/fees/*/usd' }).ok).toBe(false)
    // Nested: inside each, paths and sums read the item.
    const nested = {
      items: [
        { total: '3', a: '1', b: '2' },
        { total: '4', a: '1', b: '2' },
      ],
    }
    expect(at(nested, '/items', { each: { '/total': { sumOf: ['/a', '/b'] } } })).toMatchObject({
      ok: false,
      message: expect.stringContaining('item 1: /total is "4"'),
    })
  })

  test('usdOf: a raw amount at its decimals times a price (a number or a path), within 1e-6 USD', () => {
    const quote = {
      fee: { gas: '4641' },
      usd: { gas: 0.004641 },
      prices: { USDC: 1, ETH: 3000 },
      wei: '1000000000000000',
    }
    const gas = { amount: '/fee/gas', decimals: 6, price: { path: '/prices/USDC' } }
    expect(at(quote, '/usd/gas', { usdOf: gas }).ok).toBe(true)
    expect(at({ ...quote, usd: { gas: 0 } }, '/usd/gas', { usdOf: gas })).toMatchObject({
      ok: false,
      message: expect.stringContaining(
        'not the USD worth of /fee/gas ("4641") at 6 decimals and price /prices/USDC (1): 0.004641',
      ),
    })
    expect(at({ v: 3 }, '/v', { usdOf: { amount: '/w', decimals: 18, price: 3000 } }).ok).toBe(false)
    expect(at({ ...quote, v: 3 }, '/v', { usdOf: { amount: '/wei', decimals: 18, price: 3000 } }).ok).toBe(
      true,
    )
    expect(at({ ...quote, v: 3.01 }, '/v', { usdOf: { amount: '/wei', decimals: 18, price: 3000 } }).ok).toBe(
      false,
    )
    expect(at(quote, '/usd/gas', { usdOf: { ...gas, price: { path: '/prices/DAI' } } }).ok).toBe(false)
  })

  test('changedBy: an integer against another changed by exactly an amount (a list added up), as a balance after a settlement', () => {
    const balance = (value: string, matcher: Matcher) =>
      applyMatcher({ found: true, value }, Matcher.parse(matcher))
    // 2^64 + 5 dropped by 2^64: exact, past a double's precision.
    expect(
      balance('5', { changedBy: { from: '18446744073709551621', by: '-18446744073709551616' } }).ok,
    ).toBe(true)
    expect(balance('999', { changedBy: { from: '1000', by: -1 } }).ok).toBe(true)
    expect(balance('1000', { changedBy: { from: 1000, by: 0 } }).ok).toBe(true)
    expect(balance('940', { changedBy: { from: '1000', by: ['-50', '-10'] } }).ok).toBe(true)
    // One unit off either way is a failure that says by how much it changed and how far off.
    expect(balance('951', { changedBy: { from: '1000', by: '-50' } })).toEqual({
      ok: false,
      message: 'is 951, not "1000" changed by "-50" (950): it changed by -49, +1 off',
    })
    expect(balance('949', { changedBy: { from: '1000', by: '-50' } })).toMatchObject({
      ok: false,
      message: expect.stringContaining('it changed by -51, -1 off'),
    })
    expect(balance('1001', { changedBy: { from: '1000', by: 0 } }).ok).toBe(false)
    // Only integers: a float, a non-number or a missing bound is not a change.
    expect(balance('1.5', { changedBy: { from: '1', by: '0' } })).toMatchObject({
      ok: false,
      message: 'is "1.5", not an integer',
    })
    expect(balance('1', { changedBy: { from: 'x', by: '0' } })).toMatchObject({
      ok: false,
      message: expect.stringContaining('"x" is not an integer'),
    })
    expect(balance('1', { changedBy: { from: '1', by: ['0', '0.5'] } })).toMatchObject({
      ok: false,
      message: expect.stringContaining('the change "0.5" is not an integer'),
    })
    expect(applyMatcher({ found: false, value: undefined }, { changedBy: { from: '1', by: '0' } }).ok).toBe(
      false,
    )
    // `{path}` reads the bounds from the same document: the amount a quote names.
    const quote = { before: '1000', after: '900', input: { amount: '100' } }
    expect(at(quote, '/after', { changedBy: { from: { path: '/before' }, by: '-100' } }).ok).toBe(true)
    expect(
      at(quote, '/after', { changedBy: { from: { path: '/before' }, by: { path: '/input/amount' } } }),
    ).toMatchObject({
      ok: false,
      message:
        'is 900, not /before ("1000") changed by /input/amount ("100") (1100): it changed by -100, -200 off',
    })
  })

  test('changedBy: the schema takes a bound or a non-empty list of them, and nothing else', () => {
    expect(Matcher.safeParse({ changedBy: { from: `$\{before}`, by: `-$\{amount}` } }).success).toBe(true)
    expect(Matcher.safeParse({ changedBy: { from: 1, by: [1, '2', { path: '/a' }] } }).success).toBe(true)
    expect(Matcher.safeParse({ changedBy: { from: 1, by: [] } }).success).toBe(false)
    expect(Matcher.safeParse({ changedBy: { from: 1 } }).success).toBe(false)
    expect(Matcher.safeParse({ changedBy: { from: 1, by: 1, extra: 1 } }).success).toBe(false)
  })

  test('the schema refuses an empty matcher and takes nested ones', () => {
    expect(Matcher.safeParse({}).success).toBe(false)
    expect(Matcher.safeParse({ each: { '/a': {} } }).success).toBe(false)
    expect(Matcher.safeParse({ each: { '/a': { greaterThan: { path: '/b' } } } }).success).toBe(true)
  })
})

describe('values, not spellings', () => {
  test('equals and oneOf take an integer as a number or a decimal string, and hex in either case', () => {
    const holds = (value: unknown, matcher: Parameters<typeof applyMatcher>[1]) =>
      applyMatcher({ found: true, value }, matcher).ok
    expect(holds(2500000, { equals: '2500000' })).toBe(true)
    expect(holds('2500000', { equals: 2500000 })).toBe(true)
    expect(holds('2500001', { equals: 2500000 })).toBe(false)
    expect(holds(2.5, { equals: '2.5' })).toBe(false)
    const address = '0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913'
    expect(holds(address.toLowerCase(), { equals: address })).toBe(true)
    expect(holds({ a: [address.toLowerCase(), 1] }, { equals: { a: [address, '1'] } })).toBe(true)
    expect(holds('USDC', { equals: 'usdc' })).toBe(false)
    expect(holds(999999, { oneOf: ['0xabc', '999999'] })).toBe(true)
  })
  test("'**' holds when some value anywhere in the document does", () => {
    const event = { type: 'bridge-failed', data: { error: { code: 'TOKEN-3' }, amounts: [1, 2] } }
    expect(matchAt(event, '**', { equals: 'TOKEN-3' }).outcome.ok).toBe(true)
    expect(matchAt(event, '**', { equals: '2' }).outcome.ok).toBe(true)
    const missing = matchAt(event, '**', { equals: 'BALANCE-3' })
    expect(missing.outcome).toEqual({
      ok: false,
      message: 'holds nowhere in the body ({"equals":"BALANCE-3"})',
    })
    expect(matchAt(event, '/data/error/code', { equals: 'TOKEN-3' }).outcome.ok).toBe(true)
  })
})
