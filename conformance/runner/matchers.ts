import type { Matcher, StatusExpectation } from '../scenario/schema'
import { compiled } from './patterns'

/** A value read at a path, or that there was none. */
export type PathRead = { found: boolean; value: unknown }

/** Reads a value by JSON pointer (`/errors/0/message`) or dotted path (`errors[0].message`). */
export function readPath(value: unknown, path: string): PathRead {
  const segments =
    path === '' || path === '/' || path === '$'
      ? []
      : path.startsWith('/')
        ? path
            .slice(1)
            .split('/')
            .map((s) => s.replaceAll('~1', '/').replaceAll('~0', '~'))
        : path
            .replace(/^\$\.?/, '')
            .replace(/\[(\d+)\]/g, '.$1')
            .split('.')
            .filter((s) => s !== '')
  let current = value
  for (const segment of segments) {
    if (Array.isArray(current) && /^\d+$/.test(segment) && Number(segment) < current.length) {
      current = current[Number(segment)]
    } else if (
      typeof current === 'object' &&
      current !== null &&
      !Array.isArray(current) &&
      Object.hasOwn(current, segment)
    ) {
      current = (current as Record<string, unknown>)[segment]
    } else return { found: false, value: undefined }
  }
  return { found: true, value: current }
}

/** The path that stands for every value of a document, at any depth (`**`): a body the spec does not show. */
export const ANYWHERE = '**'

/** Every value of a document, depth first: the document itself, each field and item, and theirs. */
function* everyValue(value: unknown): Generator<unknown> {
  yield value
  if (Array.isArray(value)) for (const item of value) yield* everyValue(item)
  else if (typeof value === 'object' && value !== null)
    for (const item of Object.values(value)) yield* everyValue(item)
}

/**
 * Applies a matcher at a path of a document: a JSON pointer or dotted path (see {@link readPath}),
 * or `**`: some value anywhere in the document satisfies it (where the spec says what a body
 * carries but not where, e.g. a webhook that "carries an error code").
 *
 * @example
 * matchAt({ data: { errorCode: 'TOKEN-3' } }, '**', { equals: 'TOKEN-3' }).outcome // { ok: true }
 */
export function matchAt(
  document: unknown,
  path: string,
  matcher: Matcher,
  options: { ignoreCase?: boolean } = {},
): { read: PathRead; outcome: MatchResult } {
  if (path !== ANYWHERE) {
    const read = readPath(document, path)
    return { read, outcome: applyMatcher(read, matcher, { ...options, document }) }
  }
  for (const value of everyValue(document)) {
    const read = { found: true, value }
    if (applyMatcher(read, matcher, { ...options, document }).ok) return { read, outcome: { ok: true } }
  }
  return {
    read: { found: document !== undefined, value: undefined },
    outcome: { ok: false, message: `holds nowhere in the body (${JSON.stringify(matcher)})` },
  }
}

/** The result of applying a matcher: `ok`, or why not. */
export type MatchResult = { ok: true } | { ok: false; message: string }

function typeOf(value: unknown): string {
  if (value === null) return 'null'
  if (Array.isArray(value)) return 'array'
  return typeof value
}

const HEX = /^0x[0-9a-fA-F]+$/

/**
 * Whether two JSON values are the same value as a matcher compares them: deep equality, where an
 * integer written as a number and the same integer as a decimal string are equal (the spec types
 * some amounts as numbers, others as integer strings, and a body it does not show may use either),
 * and so are hex strings that differ only in case (a checksummed and a lower-case address).
 */
export function sameValue(a: unknown, b: unknown): boolean {
  if (jsonEqual(a, b)) return true
  // Hex (an address, a hash) is the same value in either case: EIP-55's mixed case is a checksum.
  if (typeof a === 'string' && typeof b === 'string')
    return HEX.test(a) && HEX.test(b) && a.toLowerCase() === b.toLowerCase()
  const integer = (v: unknown) =>
    typeof v === 'number' && Number.isSafeInteger(v)
      ? BigInt(v)
      : typeof v === 'string' && /^-?\d+$/.test(v)
        ? BigInt(v)
        : undefined
  if (typeof a !== typeof b && (typeof a === 'number' || typeof b === 'number')) {
    const [x, y] = [integer(a), integer(b)]
    return x !== undefined && x === y
  }
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false
  if (Array.isArray(a) !== Array.isArray(b)) return false
  const ka = Object.keys(a)
  const kb = Object.keys(b)
  return (
    ka.length === kb.length &&
    ka.every(
      (k) =>
        Object.hasOwn(b, k) &&
        sameValue((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k]),
    )
  )
}

/** Deep equality of JSON values. */
export function jsonEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true
  if (typeof a !== typeof b || a === null || b === null || typeof a !== 'object') return false
  if (Array.isArray(a) !== Array.isArray(b)) return false
  const ka = Object.keys(a as object)
  const kb = Object.keys(b as object)
  return (
    ka.length === kb.length &&
    ka.every((k) => jsonEqual((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k]))
  )
}

/**
 * Applies a matcher to a value that was or was not found. Every condition of the matcher must
 * hold.
 *
 * @example
 * applyMatcher({ found: true, value: 'VALIDATION_ERROR' }, { equals: 'VALIDATION_ERROR' }) // { ok: true }
 */
export function applyMatcher(
  read: PathRead,
  matcher: Matcher,
  options: { ignoreCase?: boolean; document?: unknown } = {},
): MatchResult {
  const { found, value } = read
  if (matcher.absent === true || matcher.exists === false)
    return found && value !== undefined ? { ok: false, message: 'is present' } : { ok: true }
  if (!found) return { ok: false, message: 'is missing' }
  if (matcher.type !== undefined) {
    const actual = typeOf(value)
    const ok = matcher.type === 'integer' ? Number.isInteger(value) : actual === matcher.type
    if (!ok) return { ok: false, message: `is of type ${actual}, not ${matcher.type}` }
  }
  if (matcher.equals !== undefined && !sameValue(value, matcher.equals))
    return { ok: false, message: `is ${JSON.stringify(value)}, not ${JSON.stringify(matcher.equals)}` }
  if (matcher.oneOf !== undefined && !matcher.oneOf.some((candidate) => sameValue(value, candidate)))
    return { ok: false, message: `is ${JSON.stringify(value)}, not one of ${JSON.stringify(matcher.oneOf)}` }
  if (matcher.matches !== undefined) {
    const text = typeof value === 'string' ? value : JSON.stringify(value)
    if (!compiled(matcher.matches, options.ignoreCase ? 'i' : '').test(text))
      return {
        ok: false,
        message: `${JSON.stringify(text).slice(0, 200)} does not match /${matcher.matches}/`,
      }
  }
  return applyRelations(value, matcher, options.document)
}

function statusMatches(status: number, code: number | string): boolean {
  return typeof code === 'number' ? status === code : Math.floor(status / 100) === Number(code[0])
}

/** Whether an HTTP status satisfies a status expectation. */
export function matchStatus(status: number, expectation: StatusExpectation): boolean {
  if (typeof expectation === 'number' || typeof expectation === 'string')
    return statusMatches(status, expectation)
  if (Array.isArray(expectation)) return expectation.some((code) => statusMatches(status, code))
  const not = Array.isArray(expectation.not) ? expectation.not : [expectation.not]
  return !not.some((code) => statusMatches(status, code))
}

/**
 * Whether an expectation names this exact status code (`404`, or `[200, 404]`), as opposed to a
 * class (`4xx`) or `{not: …}` that merely lets it through.
 *
 * @example
 * namesStatus(404, [200, 404]) // true
 * namesStatus(404, '4xx') // false
 */
export function namesStatus(status: number, expectation: StatusExpectation | undefined): boolean {
  if (typeof expectation === 'number') return expectation === status
  return Array.isArray(expectation) && expectation.includes(status)
}

/**
 * Statuses that say the route itself is missing (404, 405, 501): never acceptance, never a
 * refusal about a rule, unless a step expects that very code (a 404 for an expired quote).
 */
export const MISSING_ROUTE_STATUSES: readonly number[] = [404, 405, 501]

/** A number as the matchers compare it: exact for integers (numbers or integer strings), else a float. */
type Num = { exact: bigint } | { approx: number }

function toNum(value: unknown): Num | undefined {
  if (typeof value === 'number' && Number.isFinite(value))
    return Number.isInteger(value) ? { exact: BigInt(value) } : { approx: value }
  if (typeof value === 'string' && /^-?\d+$/.test(value)) return { exact: BigInt(value) }
  if (typeof value === 'string' && value.trim() !== '' && Number.isFinite(Number(value)))
    return { approx: Number(value) }
  return undefined
}

const asFloat = (n: Num) => ('exact' in n ? Number(n.exact) : n.approx)

/** -1, 0 or 1: a compared with b (exactly when both are integers). */
function compare(a: Num, b: Num): number {
  if ('exact' in a && 'exact' in b) return a.exact < b.exact ? -1 : a.exact > b.exact ? 1 : 0
  const d = asFloat(a) - asFloat(b)
  return d < 0 ? -1 : d > 0 ? 1 : 0
}

type Bound = NonNullable<Matcher['greaterThan']>

function resolveBound(bound: Bound, document: unknown): { num?: Num; label: string } {
  if (typeof bound === 'object') {
    const read = readPath(document, bound.path)
    const num = read.found ? toNum(read.value) : undefined
    return { ...(num ? { num } : {}), label: `${bound.path} (${JSON.stringify(read.value)})` }
  }
  const num = toNum(bound)
  return { ...(num ? { num } : {}), label: JSON.stringify(bound) }
}

const COMPARISONS = [
  ['greaterThan', (c: number) => c > 0, 'greater than'],
  ['atLeast', (c: number) => c >= 0, 'at least'],
  ['lessThan', (c: number) => c < 0, 'less than'],
  ['atMost', (c: number) => c <= 0, 'at most'],
] as const

/**
 * The relational conditions of a matcher (comparisons, `sumOf`, `each`, `ascendingBy`, `usdOf`, `changedBy`) on a value
 * found in `document` (the response body, or the item `each` is at): `{path}` bounds and
 * `sumOf` paths are read from that document.
 *
 * @example
 * applyRelations('5', { greaterThan: { path: '/a' } }, { a: '4' }) // { ok: true }
 */
export function applyRelations(value: unknown, matcher: Matcher, document: unknown): MatchResult {
  for (const [key, holds, words] of COMPARISONS) {
    const bound = matcher[key]
    if (bound === undefined) continue
    const actual = toNum(value)
    if (!actual) return { ok: false, message: `is ${JSON.stringify(value)}, not a number` }
    const { num, label } = resolveBound(bound, document)
    if (!num) return { ok: false, message: `cannot be compared: ${label} is not a number` }
    if (!holds(compare(actual, num)))
      return { ok: false, message: `is ${JSON.stringify(value)}, not ${words} ${label}` }
  }
  if (matcher.sumOf !== undefined) {
    const actual = toNum(value)
    if (!actual) return { ok: false, message: `is ${JSON.stringify(value)}, not a number` }
    // A `*` segment (`/gasCost/originChains/*/gasUSD`) adds every element or field there.
    const parts = matcher.sumOf.map((path) => ({ path, read: readPath(document, path) }))
    const numOf = (p: (typeof parts)[number]) =>
      p.path.includes('/*') ? sortKey(document, p.path) : p.read.found ? toNum(p.read.value) : undefined
    const bad = parts.find((p) => !numOf(p))
    if (bad)
      return { ok: false, message: `cannot be summed: ${bad.path} is ${JSON.stringify(bad.read.value)}` }
    const nums = parts.map((p) => numOf(p) as Num)
    const exact = 'exact' in actual && nums.every((n) => 'exact' in n)
    const ok = exact
      ? nums.reduce((s, n) => s + (n as { exact: bigint }).exact, 0n) === actual.exact
      : Math.abs(nums.reduce((s, n) => s + asFloat(n), 0) - asFloat(actual)) <=
        1e-6 * Math.max(1, Math.abs(asFloat(actual)))
    if (!ok)
      return {
        ok: false,
        message: `is ${JSON.stringify(value)}, not the sum of ${parts.map((p) => `${p.path} (${JSON.stringify(p.read.value)})`).join(' + ')}`,
      }
  }
  if (matcher.each !== undefined) {
    // An array's items, or an object's values (e.g. a map keyed by token address).
    const items = Array.isArray(value)
      ? [...value.entries()]
      : typeOf(value) === 'object'
        ? Object.entries(value as Record<string, unknown>)
        : []
    if (items.length === 0)
      return {
        ok: false,
        message: `is ${JSON.stringify(value)?.slice(0, 100)}, not a non-empty array or object`,
      }
    for (const [key, item] of items)
      for (const [path, inner] of Object.entries(matcher.each)) {
        const outcome = applyMatcher(readPath(item, path), inner, { document: item })
        if (!outcome.ok) return { ok: false, message: `item ${key}: ${path} ${outcome.message}` }
      }
  }
  if (matcher.usdOf !== undefined) {
    const outcome = usdOf(value, matcher.usdOf, document)
    if (!outcome.ok) return outcome
  }
  if (matcher.changedBy !== undefined) {
    const outcome = changedBy(value, matcher.changedBy, document)
    if (!outcome.ok) return outcome
  }
  if (matcher.ascendingBy !== undefined) {
    if (!Array.isArray(value) || value.length === 0)
      return { ok: false, message: `is ${JSON.stringify(value)?.slice(0, 100)}, not a non-empty array` }
    const path = matcher.ascendingBy
    const keys = value.map((item) => sortKey(item, path))
    const missing = keys.findIndex((k) => !k)
    if (missing >= 0) return { ok: false, message: `item ${missing}: ${path} is not a number` }
    const shown = (k: Num | undefined) => (k && 'exact' in k ? k.exact.toString() : String(k && asFloat(k)))
    for (let i = 1; i < keys.length; i++)
      if (compare(keys[i - 1] as Num, keys[i] as Num) > 0)
        return {
          ok: false,
          message: `is not in ascending ${path}: item ${i - 1} has ${shown(keys[i - 1])}, item ${i} ${shown(keys[i])}`,
        }
  }
  return { ok: true }
}

/** Whether `value` is the USD worth of the raw amount at `spec.amount`: amount ÷ 10^decimals × price, within 1e-6 USD. */
function usdOf(value: unknown, spec: NonNullable<Matcher['usdOf']>, document: unknown): MatchResult {
  const actual = toNum(value)
  if (!actual) return { ok: false, message: `is ${JSON.stringify(value)}, not a number` }
  const amount = readPath(document, spec.amount)
  const raw = amount.found ? toNum(amount.value) : undefined
  if (!raw)
    return { ok: false, message: `cannot be priced: ${spec.amount} is ${JSON.stringify(amount.value)}` }
  const { num: price, label } = resolveBound(spec.price, document)
  if (!price) return { ok: false, message: `cannot be priced: the price ${label} is not a number` }
  const expected = (asFloat(raw) / 10 ** spec.decimals) * asFloat(price)
  return Math.abs(asFloat(actual) - expected) <= 1e-6 * Math.max(1, Math.abs(expected))
    ? { ok: true }
    : {
        ok: false,
        message: `is ${JSON.stringify(value)}, not the USD worth of ${spec.amount} (${JSON.stringify(amount.value)}) at ${spec.decimals} decimals and price ${label}: ${expected}`,
      }
}

/**
 * Whether `value` is the integer `spec.from` changed by exactly `spec.by` (a list is added up):
 * a balance after a settlement against the one captured before it. Integers only, exactly.
 */
function changedBy(value: unknown, spec: NonNullable<Matcher['changedBy']>, document: unknown): MatchResult {
  const actual = toNum(value)
  if (!actual || !('exact' in actual))
    return { ok: false, message: `is ${JSON.stringify(value)}, not an integer` }
  const from = resolveBound(spec.from, document)
  if (!from.num || !('exact' in from.num))
    return { ok: false, message: `cannot be compared: ${from.label} is not an integer` }
  let by = 0n
  const labels: string[] = []
  for (const part of Array.isArray(spec.by) ? spec.by : [spec.by]) {
    const { num, label } = resolveBound(part, document)
    if (!num || !('exact' in num))
      return { ok: false, message: `cannot be compared: the change ${label} is not an integer` }
    by += num.exact
    labels.push(label)
  }
  const expected = from.num.exact + by
  if (actual.exact === expected) return { ok: true }
  const change = actual.exact - from.num.exact
  return {
    ok: false,
    message: `is ${actual.exact}, not ${from.label} changed by ${labels.join(' + ')} (${expected}): it changed by ${change}, ${change - by > 0n ? '+' : ''}${change - by} off`,
  }
}

/**
 * The number at `path` of an item; a `*` segment takes every field or element there and sums
 * what it finds (the segment `*` after a route's `fees/breakdown`, then `usd`: the total of its fee types).
 */
function sortKey(item: unknown, path: string): Num | undefined {
  const star = path.indexOf('/*')
  if (star < 0) return toNum(readPath(item, path).value)
  const container = readPath(item, path.slice(0, star)).value
  if (typeof container !== 'object' || container === null) return undefined
  const rest = path.slice(star + 2)
  const parts = Object.values(container).map((child) => sortKey(child, rest === '' ? '/' : rest))
  if (parts.length === 0 || parts.some((p) => !p)) return undefined
  const nums = parts as Num[]
  return nums.every((n) => 'exact' in n)
    ? { exact: nums.reduce((sum, n) => sum + (n as { exact: bigint }).exact, 0n) }
    : { approx: nums.reduce((sum, n) => sum + asFloat(n), 0) }
}
