import fc from 'fast-check'
import { getAddress } from 'viem'
import type { z } from 'zod'
import { MAX_UINT256 } from '../../spec/common'

/**
 * fast-check arbitraries of the values a zod schema of the contract accepts: the fuzzer's valid
 * inputs come from the contract itself, not from hand-written samples. Strings with a pattern
 * are generated from the pattern (`fc.stringMatching`), lengths and bounds from the schema's
 * checks; values the target knows (its tokens, chains and funded accounts) are mixed in so that
 * valid requests reach the domain logic instead of stopping at "unknown token".
 */

/** What the target knows, mixed into generated values (from its manifest or `--chains` file). */
export type Hints = {
  /** Funded accounts' addresses. */
  accounts: readonly string[]
  /** Token addresses the target quotes. */
  tokens: readonly string[]
  chainIds: readonly number[]
  /** Token addresses by chain and symbol (`{8453: {USDC: '0x…'}}`), to keep a request's token on its chain. */
  tokensByChain?: Readonly<Record<number, Readonly<Record<string, string>>>> | undefined
}

/**
 * The value with each known token moved to the chain its object names (`chainId`,
 * `destinationChainId`): the same symbol on that chain. A request whose token is on another
 * chain is refused for it, and says nothing of the rest.
 *
 * @example
 * coherent({ destinationChainId: 8453, tokenRequests: [{ tokenAddress: usdcOnOptimism, amount: '1' }] }, hints)
 */
export function coherent(value: unknown, hints: Hints, chain?: number): unknown {
  const byChain = hints.tokensByChain
  if (!byChain) return value
  if (typeof value === 'string') {
    const symbols = chain === undefined ? undefined : byChain[chain]
    if (!symbols) return value
    for (const tokens of Object.values(byChain))
      for (const [symbol, address] of Object.entries(tokens))
        if (address.toLowerCase() === value.toLowerCase()) return symbols[symbol] ?? value
    return value
  }
  if (Array.isArray(value)) return value.map((item) => coherent(item, hints, chain))
  if (value && typeof value === 'object') {
    const record = value as Record<string, unknown>
    const own = record.destinationChainId ?? record.chainId
    const here = typeof own === 'number' || typeof own === 'string' ? Number(own) : chain
    return Object.fromEntries(
      Object.entries(record).map(([key, child]) => [key, coherent(child, hints, here)]),
    )
  }
  return value
}

type Def = {
  type: string
  checks?: { _zod: { def: Record<string, unknown> } }[]
  [key: string]: unknown
}

/** The definition of a zod schema (zod 4 keeps it on `_zod.def`). */
export function defOf(schema: z.ZodType): Def {
  return (schema as unknown as { _zod: { def: Def } })._zod.def
}

/** The definitions of a schema's checks (`min_length`, `string_format`, `greater_than`, …). */
export function checksOf(schema: z.ZodType): Record<string, unknown>[] {
  return (defOf(schema).checks ?? []).map((check) => check._zod.def)
}

const HEX_ADDRESS = /^0x[0-9a-fA-F]{40}$/
const DIGITS = /^\d+$/
const HEX = /^0x[0-9a-fA-F]*$/
/** Small amounts first: they are what a funded account can pay; the bounds of uint256 too. */
const integerStrings = fc.oneof(
  { weight: 6, arbitrary: fc.bigInt({ min: 1n, max: 10_000_000n }).map(String) },
  { weight: 1, arbitrary: fc.constantFrom('0', '1', String(MAX_UINT256), String(2n ** 53n)) },
  { weight: 1, arbitrary: fc.bigInt({ min: 0n, max: MAX_UINT256 }).map(String) },
)

/** One arbitrary per pattern: building one is costly (fast-check prepares its string biases). */
const matchingCache = new Map<string, fc.Arbitrary<string>>()
function matching(pattern: RegExp): fc.Arbitrary<string> {
  const key = `${pattern.source}/${pattern.flags}`
  let arbitrary = matchingCache.get(key)
  if (!arbitrary) {
    arbitrary = fc.stringMatching(pattern, { size: 'xsmall' })
    matchingCache.set(key, arbitrary)
  }
  return arbitrary
}

/** A schema's pattern (a `regex` string format), if it has one. */
export function patternOf(schema: z.ZodType): RegExp | undefined {
  const check = checksOf(schema).find((c) => c.check === 'string_format' && c.format === 'regex')
  return check?.pattern as RegExp | undefined
}

/** A property name as the field of a path (`tokenAddress`), or undefined for an array index. */
type FieldName = string | undefined

/**
 * An arbitrary of values the schema accepts. `field` names the property the value sits in
 * (values the target knows are mixed in by name and shape); `depth` bounds nesting.
 *
 * @example
 * fc.sample(arbitraryOf(RouteRequest, hints), 1)
 */
export function arbitraryOf(
  schema: z.ZodType,
  hints: Hints,
  field?: FieldName,
  depth = 0,
): fc.Arbitrary<unknown> {
  const arbitrary = shapeArbitrary(schema, hints, field, depth)
  // A refinement (`minAmount` ≤ `maxAmount`, an amount above zero) is met by filtering.
  return checksOf(schema).some((check) => check.check === 'custom')
    ? arbitrary.filter((value) => schema.safeParse(value).success)
    : arbitrary
}

function shapeArbitrary(
  schema: z.ZodType,
  hints: Hints,
  field: FieldName,
  depth: number,
): fc.Arbitrary<unknown> {
  const def = defOf(schema)
  switch (def.type) {
    case 'string':
      return stringArbitrary(schema, hints, field)
    case 'number':
      return numberArbitrary(schema, hints, field)
    case 'boolean':
      return fc.boolean()
    case 'literal':
      return fc.constantFrom(...(def.values as unknown[]))
    case 'enum':
      return fc.constantFrom(...Object.values(def.entries as Record<string, unknown>))
    case 'null':
      return fc.constant(null)
    case 'optional':
      return arbitraryOf(def.innerType as z.ZodType, hints, field, depth)
    case 'default':
    case 'prefault':
    case 'catch':
    case 'readonly':
    case 'nonoptional':
      return arbitraryOf(def.innerType as z.ZodType, hints, field, depth)
    case 'nullable':
      return fc.oneof(
        { weight: 4, arbitrary: arbitraryOf(def.innerType as z.ZodType, hints, field, depth) },
        { weight: 1, arbitrary: fc.constant(null) },
      )
    case 'pipe':
      return arbitraryOf(def.in as z.ZodType, hints, field, depth)
    case 'lazy':
      return arbitraryOf((def.getter as () => z.ZodType)(), hints, field, depth)
    case 'union':
      // The contract writes the spec's form first (`number`), and the forms it also accepts
      // after (an integer string, as the SDK sends): a valid value is of the spec's form, which
      // every implementation takes; the others are left to the one-change variants.
      return arbitraryOf((def.options as z.ZodType[])[0]!, hints, field, depth)
    case 'tuple':
      return fc.tuple(...(def.items as z.ZodType[]).map((item) => arbitraryOf(item, hints, field, depth + 1)))
    case 'array':
      return arrayArbitrary(schema, hints, field, depth)
    case 'record':
      return recordArbitrary(schema, hints, depth)
    case 'object':
      return objectArbitrary(schema, hints, depth)
    default:
      // unknown, any and what the contract's request schemas do not use: small JSON.
      return depth > 3 ? fc.constant({}) : smallJson
  }
}

const smallJson: fc.Arbitrary<unknown> = fc.jsonValue({ maxDepth: 2, depthSize: 'small' })

function stringArbitrary(schema: z.ZodType, hints: Hints, field: FieldName): fc.Arbitrary<string> {
  const checks = checksOf(schema)
  const format = defOf(schema).format ?? checks.find((c) => c.check === 'string_format')?.format
  if (format === 'url') return fc.constantFrom('https://example.com/hooks', 'http://127.0.0.1:9/hook')
  if (format === 'datetime') return fc.constant('2026-01-01T00:00:00.000Z')
  const pattern = patternOf(schema)
  if (pattern?.source === HEX_ADDRESS.source) return addressArbitrary(hints, field)
  if (pattern?.source === DIGITS.source) {
    if (field && /chainid/i.test(field) && hints.chainIds.length > 0)
      return fc.oneof(fc.constantFrom(...hints.chainIds.map(String)), integerStrings)
    return integerStrings
  }
  if (pattern?.source === HEX.source)
    return fc.uint8Array({ maxLength: 8 }).map((bytes) => `0x${Buffer.from(bytes).toString('hex')}`)
  if (pattern) return matching(positiveClasses(pattern))
  const min = Number(checks.find((c) => c.check === 'min_length')?.minimum ?? 0)
  const max = Number(checks.find((c) => c.check === 'max_length')?.maximum ?? Math.max(min, 12))
  if (field === 'accountType') return fc.constantFrom('EOA', 'ERC7579')
  if (field === 'tokenAddress' || field === 'token' || field === 'targetToken' || field === 'feeToken')
    return hints.tokens.length > 0 ? fc.constantFrom(...hints.tokens) : fc.constant('USDC')
  if (field === 'intentId' || field === 'id') return matching(/^[0-9a-f]{1,16}$/)
  return fc.string({
    minLength: Math.max(min, 1),
    maxLength: Math.max(max, Math.max(min, 1)),
    unit: 'grapheme-ascii',
  })
}

/**
 * The pattern with each negated class of plain characters (`[^,:]`) written as the letters and
 * digits it allows: fast-check generates a negated class by filtering every character, which
 * was most of the generation time.
 */
function positiveClasses(pattern: RegExp): RegExp {
  const source = pattern.source.replace(/\[\^([^\]\\-]*)\]/g, (_, excluded: string) => {
    const allowed = [...'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789'].filter(
      (c) => !excluded.includes(c),
    )
    return `[${allowed.join('')}]`
  })
  return source === pattern.source ? pattern : new RegExp(source, pattern.flags)
}

function addressArbitrary(hints: Hints, field: FieldName): fc.Arbitrary<string> {
  const known = field && /token/i.test(field) ? hints.tokens : hints.accounts
  // Lower case or EIP-55 checksummed: a mixed case with a wrong checksum is refused by many
  // readers (EIP-55), a disagreement the contract's pattern does not settle.
  const random = fc
    .tuple(fc.uint8Array({ minLength: 20, maxLength: 20 }), fc.boolean())
    .map(([bytes, checksummed]) => {
      const lower = `0x${Buffer.from(bytes).toString('hex')}`
      return checksummed ? getAddress(lower) : lower
    })
  return known.length > 0 ? fc.oneof({ weight: 3, arbitrary: fc.constantFrom(...known) }, random) : random
}

function numberArbitrary(schema: z.ZodType, hints: Hints, field: FieldName): fc.Arbitrary<number> {
  const checks = checksOf(schema)
  const integer = checks.some((c) => c.check === 'number_format' && /int/.test(String(c.format)))
  const lower = checks.find((c) => c.check === 'greater_than')
  const upper = checks.find((c) => c.check === 'less_than')
  let min = lower ? Number(lower.value) + (lower.inclusive ? 0 : integer ? 1 : Number.EPSILON) : undefined
  let max = upper ? Number(upper.value) - (upper.inclusive ? 0 : integer ? 1 : Number.EPSILON) : undefined
  if (integer) {
    min = Math.max(min ?? 0, Number.MIN_SAFE_INTEGER)
    max = Math.min(max ?? 10_000_000, Number.MAX_SAFE_INTEGER)
    const range = fc.integer({ min, max })
    if (field && /chainid/i.test(field) && hints.chainIds.length > 0)
      return fc.oneof({ weight: 3, arbitrary: fc.constantFrom(...hints.chainIds) }, range)
    return fc.oneof({ weight: 4, arbitrary: range }, fc.constantFrom(min, max))
  }
  return fc.double({ min: min ?? 0, max: max ?? 1e6, noNaN: true, noDefaultInfinity: true })
}

function arrayArbitrary(
  schema: z.ZodType,
  hints: Hints,
  field: FieldName,
  depth: number,
): fc.Arbitrary<unknown[]> {
  const def = defOf(schema)
  const checks = checksOf(schema)
  const min = Number(checks.find((c) => c.check === 'min_length')?.minimum ?? 0)
  const max = Number(checks.find((c) => c.check === 'max_length')?.maximum ?? Math.max(min, 3))
  return fc.array(arbitraryOf(def.element as z.ZodType, hints, field, depth + 1), {
    minLength: min,
    maxLength: Math.min(max, Math.max(min, 3)),
  })
}

function recordArbitrary(
  schema: z.ZodType,
  hints: Hints,
  depth: number,
): fc.Arbitrary<Record<string, unknown>> {
  const def = defOf(schema)
  const keyType = def.keyType as z.ZodType
  const keyPattern = patternOf(keyType)
  // Keys: chain ids (decimal or CAIP-2, as the schema asks), else short names.
  const chainKeys = hints.chainIds.length > 0 ? hints.chainIds : [1, 8453]
  const caip2 = checksOf(schema).some((c) => c.check === 'custom')
  const key: fc.Arbitrary<string> =
    keyPattern?.source === DIGITS.source
      ? fc.constantFrom(...chainKeys.map(String))
      : caip2
        ? fc.constantFrom(...chainKeys.map((id) => `eip155:${id}`))
        : matching(/^[a-zA-Z]{1,8}$/)
  return fc.dictionary(key, arbitraryOf(def.valueType as z.ZodType, hints, undefined, depth + 1), {
    maxKeys: depth > 2 ? 1 : 2,
  })
}

function objectArbitrary(
  schema: z.ZodType,
  hints: Hints,
  depth: number,
): fc.Arbitrary<Record<string, unknown>> {
  const shape = defOf(schema).shape as Record<string, z.ZodType>
  const model: Record<string, fc.Arbitrary<unknown>> = {}
  const requiredKeys: string[] = []
  for (const [name, child] of Object.entries(shape)) {
    model[name] = arbitraryOf(child, hints, name, depth + 1)
    if (!isOptional(child)) requiredKeys.push(name)
  }
  // Deep optional parts are left out more often than not: requests stay small and readable.
  return fc.record(model, { requiredKeys }) as fc.Arbitrary<Record<string, unknown>>
}

/** Whether a property of this schema may be left out of its object. */
export function isOptional(schema: z.ZodType): boolean {
  const type = defOf(schema).type
  return type === 'optional' || type === 'default' || type === 'prefault'
}
