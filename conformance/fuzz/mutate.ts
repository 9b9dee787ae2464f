import type { z } from 'zod'
import { MAX_UINT256 } from '../../spec/common'
import { checksOf, defOf } from './fromSchema'

/**
 * Invalid and boundary variants of a valid value: one change at one place (a field of the wrong
 * type, a required field left out, an extra field, a limit ±1, a huge, negative or fractional
 * number, unicode, deep nesting). One change at a time, so that a target that lets exactly one
 * kind of fault through (a negative amount and nothing else) is seen doing it. Whether the
 * result is still valid is not decided here: the contract's schema decides (cases.ts).
 */

/** A path into a JSON value: property names and array indexes. */
export type JsonPath = (string | number)[]

/** One place of a value that can be changed: its path, the schema there, its value. */
export type Site = { path: JsonPath; schema: z.ZodType | undefined; value: unknown; inObject: boolean }

/** The kinds of change, in the order a shrunk finding prefers (the first is the simplest). */
export const MUTATIONS = [
  'wrong-type',
  'missing',
  'negative',
  'fractional',
  'huge',
  'limit',
  'empty',
  'unicode',
  'extra-field',
  'nesting',
] as const
export type MutationKind = (typeof MUTATIONS)[number]

/** The schema under wrappers that do not change the value's shape (optional, nullable, default, pipe). */
export function unwrap(schema: z.ZodType | undefined): z.ZodType | undefined {
  let current = schema
  for (let i = 0; current && i < 10; i++) {
    const def = defOf(current)
    if (
      ['optional', 'nullable', 'default', 'prefault', 'readonly', 'catch', 'nonoptional'].includes(def.type)
    )
      current = def.innerType as z.ZodType
    else if (def.type === 'pipe') current = def.in as z.ZodType
    else if (def.type === 'lazy') current = (def.getter as () => z.ZodType)()
    else return current
  }
  return current
}

/** The schema of a child of a value (a property, an item, a record value), where it can be told. */
function childSchema(
  schema: z.ZodType | undefined,
  key: string | number,
  value: unknown,
): z.ZodType | undefined {
  const inner = unwrap(schema)
  if (!inner) return undefined
  const def = defOf(inner)
  if (def.type === 'object') return (def.shape as Record<string, z.ZodType>)[key as string]
  if (def.type === 'array') return def.element as z.ZodType
  if (def.type === 'tuple') return (def.items as z.ZodType[])[key as number]
  if (def.type === 'record') return def.valueType as z.ZodType
  if (def.type === 'union') {
    // The option the value is of: the first whose parse of the parent succeeds, else the first.
    for (const option of def.options as z.ZodType[])
      if (option.safeParse(value).success) return childSchema(option, key, (value as never)?.[key])
  }
  return undefined
}

/**
 * Every place of a value, depth first (the value itself first), at most `limit` of them.
 *
 * @example
 * sitesOf(WithdrawalRequest, body).map((s) => s.path.join('.')) // ['', 'account', 'chainId', …]
 */
export function sitesOf(schema: z.ZodType | undefined, value: unknown, limit = 64): Site[] {
  const sites: Site[] = []
  const walk = (s: z.ZodType | undefined, v: unknown, path: JsonPath, inObject: boolean) => {
    if (sites.length >= limit) return
    sites.push({ path, schema: s, value: v, inObject })
    if (Array.isArray(v))
      for (const [i, item] of v.entries()) walk(childSchema(s, i, v), item, [...path, i], false)
    else if (v && typeof v === 'object')
      for (const [key, child] of Object.entries(v)) walk(childSchema(s, key, v), child, [...path, key], true)
  }
  walk(schema, value, [], false)
  return sites
}

/** A deep copy of a JSON value with the value at `path` replaced (or removed when `remove`). */
export function setAt(value: unknown, path: JsonPath, next: unknown, remove = false): unknown {
  if (path.length === 0) return next
  const [head, ...rest] = path
  if (Array.isArray(value)) {
    const copy = [...value]
    if (remove && rest.length === 0) copy.splice(head as number, 1)
    else copy[head as number] = setAt(copy[head as number], rest, next, remove)
    return copy
  }
  const copy = { ...(value as Record<string, unknown>) }
  if (remove && rest.length === 0) delete copy[head as string]
  else copy[head as string] = setAt(copy[head as string], rest, next, remove)
  return copy
}

const UNICODE = ['Ωmega ✓ 𝔘ni', '\u202egnp.exe', '😀'.repeat(8), 'a\u0000b', 'ﬁ\u0301\u200d', '𐍈'] as const
const HUGE_NUMBERS = [1e308, 2 ** 64, Number.MAX_SAFE_INTEGER + 2] as const
const HUGE_STRINGS = [String(MAX_UINT256 + 1n), '9'.repeat(100)] as const

/** JSON values of each type, for a field of the wrong type. */
const OF_TYPE = [true, 42, 'text', [1], { a: 1 }, null] as const
const typeOf = (value: unknown) => (value === null ? 'null' : Array.isArray(value) ? 'array' : typeof value)

/** Nested arrays and objects `depth` deep, around a leaf. */
function nested(depth: number): unknown {
  let value: unknown = 1
  for (let i = 0; i < depth; i++) value = i % 2 ? [value] : { n: value }
  return value
}

/** What a mutation did, for the finding's title. */
export type Mutated = { value: unknown; description: string } | undefined

/**
 * Applies one change of `kind` at `site` of `value`; `pick` chooses among the variants of that
 * kind (which wrong type, which huge number). Undefined when the kind does not apply there.
 *
 * @example
 * mutate(body, site, 'negative', 0) // { value: { …, amount: '-1000' }, description: 'amount negative' }
 */
export function mutate(value: unknown, site: Site, kind: MutationKind, pick: number): Mutated {
  const at = site.path.length ? site.path.join('.') : 'the body'
  const current = site.value
  const set = (next: unknown, what: string) => ({
    value: setAt(value, site.path, next),
    description: `${at}: ${what}`,
  })
  switch (kind) {
    case 'wrong-type': {
      const others = OF_TYPE.filter((candidate) => typeOf(candidate) !== typeOf(current))
      const next = others[pick % others.length]
      return set(next, `${typeOf(next)} instead of ${typeOf(current)}`)
    }
    case 'missing':
      if (!site.inObject) return undefined
      return { value: setAt(value, site.path, undefined, true), description: `${at} left out` }
    case 'negative':
      if (typeof current === 'number') return set(-(Math.abs(current) + 1), 'negative')
      if (typeof current === 'string' && /^\d+$/.test(current))
        return set(`-${current === '0' ? '1' : current}`, 'negative')
      return undefined
    case 'fractional':
      if (typeof current === 'number') return set(current + 0.5, 'fractional')
      if (typeof current === 'string' && /^\d+$/.test(current)) return set(`${current}.5`, 'fractional')
      return undefined
    case 'huge':
      if (typeof current === 'number') return set(HUGE_NUMBERS[pick % HUGE_NUMBERS.length], 'huge')
      if (typeof current === 'string' && /^\d+$/.test(current))
        return set(HUGE_STRINGS[pick % HUGE_STRINGS.length], 'huge')
      return undefined
    case 'limit':
      return limitVariant(value, site, unwrap(site.schema), pick)
    case 'empty':
      if (typeof current === 'string') return set('', 'empty string')
      if (Array.isArray(current)) return set([], 'empty array')
      if (current && typeof current === 'object') return set({}, 'empty object')
      return undefined
    case 'unicode':
      return typeof current === 'string' ? set(UNICODE[pick % UNICODE.length], 'unicode') : undefined
    case 'extra-field':
      if (!current || typeof current !== 'object' || Array.isArray(current)) return undefined
      return set(
        { ...current, [pick % 2 ? 'unexpectedField' : 'ünïcødé']: pick % 3 ? 'x' : nested(3) },
        'an extra field',
      )
    case 'nesting':
      return set(nested(4 + (pick % 12)), 'deeply nested')
  }
}

/** A limit of the schema at a site, ±1: an array's min/max length, a number's bounds, a string's length. */
function limitVariant(value: unknown, site: Site, inner: z.ZodType | undefined, pick: number): Mutated {
  if (!inner) return undefined
  const checks = checksOf(inner)
  const at = site.path.length ? site.path.join('.') : 'the body'
  const type = defOf(inner).type
  const max = checks.find((c) => c.check === 'max_length')?.maximum as number | undefined
  const min = checks.find((c) => c.check === 'min_length')?.minimum as number | undefined
  if (type === 'array' && Array.isArray(site.value) && site.value.length > 0) {
    const bounds = [
      max,
      max === undefined ? undefined : max + 1,
      min === undefined ? undefined : min - 1,
    ].filter((n): n is number => n !== undefined && n >= 0)
    const size = bounds[pick % Math.max(1, bounds.length)]
    if (size === undefined) return undefined
    const items = Array.from(
      { length: size },
      (_, i) => (site.value as unknown[])[i % (site.value as unknown[]).length],
    )
    return {
      value: setAt(value, site.path, items),
      description: `${at}: ${size} items (limit ${max ?? min})`,
    }
  }
  if (type === 'number' && typeof site.value === 'number') {
    const lower = checks.find((c) => c.check === 'greater_than')?.value as number | undefined
    const upper = checks.find((c) => c.check === 'less_than')?.value as number | undefined
    const bounds = [
      upper,
      upper === undefined ? undefined : upper + 1,
      lower,
      lower === undefined ? undefined : lower - 1,
    ].filter((n): n is number => n !== undefined)
    const next = bounds[pick % Math.max(1, bounds.length)]
    if (next === undefined) return undefined
    return { value: setAt(value, site.path, next), description: `${at}: ${next} (a bound)` }
  }
  return undefined
}
