/**
 * Which recorded values change from run to run: identifiers, nonces, signatures, hashes,
 * timestamps, trace ids, URLs with ports. The writer turns them into captures and references and
 * never expects them literally; every other value is a stable field the replay checks.
 */

/** Field names whose values are made fresh by each run. */
const VOLATILE_KEY =
  /^(id|ids|nonce|vt|salt|now|url|at|hash|signature|traceId|encodedVal|offsetSeconds|expires|expiry|deadline|timestamp)$|(Id|Ids|Nonce|Hash|Hashes|Signature|Signatures|At|Url|Timestamp|Deadline|Expiry|Expires|BlockNumber|Block)$/

/**
 * Parts of an answer priced from the chains' gas (costs, fees, USD values, and the input amounts
 * that include them): they follow the base fee, which a restored chain does not keep, so they are
 * not compared.
 */
const PRICED_SEGMENT =
  /^(cost|costs|fees|fee|gas|gasRefund|usd|totalUsd|.*Usd|.*Fee|.*Fees|commitments|idsAndAmounts|permitted|input|inputs|tokenIn|intentCost|tokensSpent|tokensReceived|spendTokens|gasPrices|gasCost|gasUSD|amountSpent.*|fundedBy|fee.*)$/

const TIME_KEY = /^(now|at|timestamp|expires|expiry|deadline)$|(At|Timestamp|Deadline|Expiry|Expires)$/

const HEX_HASH = /^0x[0-9a-fA-F]{64}$/
const HEX_SIGNATURE = /^0x[0-9a-fA-F]{130}$/
const ISO_DATE = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}/
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i

/** Whether a number (or a decimal string) looks like a unix time in seconds or milliseconds. */
function looksLikeTime(value: unknown): boolean {
  const n =
    typeof value === 'number'
      ? value
      : typeof value === 'string' && /^\d{10,13}$/.test(value)
        ? Number(value)
        : NaN
  return (n > 1.4e9 && n < 4.2e9) || (n > 1.4e12 && n < 4.2e12)
}

/**
 * Whether a leaf of a recorded body (its field name and value) changes from run to run.
 *
 * @example
 * isVolatile('intentId', 'abc') // true
 * isVolatile('amount', '1000000') // false
 * isVolatile('amount', '5402', '/routes/0/cost/fees/amount') // true
 */
export function isVolatile(key: string | number | undefined, value: unknown, pointer = ''): boolean {
  return isFresh(key, value) || pointer.split('/').some(isPricedSegment)
}

/** {@link isVolatile} of a leaf {@link leaves} gave (its pointer's segments already tested on the way down). */
export function isVolatileLeaf(leaf: Leaf): boolean {
  return leaf.priced === true || isFresh(leaf.key, leaf.value)
}

/**
 * Whether a leaf is priced from gas and nothing else makes it volatile: a replay from the
 * recorded state (the chains' base fees restored) gets it again, a replay elsewhere does not.
 *
 * @example
 * isPricedOnly(leaves({ cost: { fees: { usd: 0.8 } } })[0]!) // true
 */
export function isPricedOnly(leaf: Leaf): boolean {
  return leaf.priced === true && !isFresh(leaf.key, leaf.value)
}

/**
 * Whether a JSON pointer passes through a gas-priced part of an answer (`/routes/0/cost/…`).
 *
 * @example
 * isPricedPointer('/routes/0/cost/fees/totalUsd') // true
 */
export function isPricedPointer(pointer: string): boolean {
  return pointer.split('/').some(isPricedSegment)
}

/** Segments repeat across every answer of a recording: each is tested against the pattern once. */
const pricedSegments = new Map<string, boolean>()
function isPricedSegment(segment: string): boolean {
  let priced = pricedSegments.get(segment)
  if (priced === undefined) {
    priced = PRICED_SEGMENT.test(segment)
    if (pricedSegments.size < 100_000) pricedSegments.set(segment, priced)
  }
  return priced
}

/**
 * Whether a leaf is a value a run makes fresh (an id, nonce, signature, hash, timestamp): a later
 * request or answer that carries it refers to it by a capture.
 */
export function isIdentity(key: string | number | undefined, value: unknown): boolean {
  if (typeof value === 'string' && /^0x0*$/.test(value)) return false
  // Two times a second apart are equal by chance, not by reference: times are never captured.
  if (looksLikeTime(value) || ISO_DATE.test(String(value))) return false
  if (typeof key === 'string' && TIME_KEY.test(key)) return false
  return isFresh(key, value)
}

/** Whether a leaf is made fresh by each run (by its field name or its form). */
function isFresh(key: string | number | undefined, value: unknown): boolean {
  if (typeof key === 'string' && VOLATILE_KEY.test(key)) return true
  if (typeof value === 'string')
    return (
      HEX_HASH.test(value) ||
      HEX_SIGNATURE.test(value) ||
      ISO_DATE.test(value) ||
      UUID.test(value) ||
      looksLikeTime(value)
    )
  if (typeof value === 'number') return looksLikeTime(value)
  return false
}

/** Whether a value is an ECDSA signature as clients send it (65 bytes, hex). */
export const isSignature = (value: unknown): value is `0x${string}` =>
  typeof value === 'string' && HEX_SIGNATURE.test(value)

/** A leaf of a JSON value: its JSON pointer, the field name it sits under, and the value. */
export type Leaf = {
  pointer: string
  key: string | number | undefined
  value: unknown
  /** Whether a segment of the pointer names a gas-priced part (set by {@link leaves}). */
  priced?: boolean
}

const escapeSegment = (segment: string) =>
  segment.includes('~') || segment.includes('/')
    ? segment.replaceAll('~', '~0').replaceAll('/', '~1')
    : segment

/**
 * Every leaf (string, number, boolean, null) of a JSON value, with its JSON pointer, in document order.
 *
 * @example
 * leaves({ a: [1, { b: 'x' }] }) // [{ pointer: '/a/0', … }, { pointer: '/a/1/b', … }]
 */
export function leaves(
  value: unknown,
  pointer = '',
  key?: string | number,
  into: Leaf[] = [],
  priced = false,
): Leaf[] {
  if (Array.isArray(value))
    for (let i = 0; i < value.length; i++)
      leaves(value[i], `${pointer}/${i}`, i, into, priced || isPricedSegment(String(i)))
  else if (typeof value === 'object' && value !== null)
    for (const k in value) {
      const segment = escapeSegment(k)
      leaves(
        (value as Record<string, unknown>)[k],
        `${pointer}/${segment}`,
        k,
        into,
        priced || isPricedSegment(segment),
      )
    }
  else into.push({ pointer, key, value, priced })
  return into
}

/** Every object or array of a JSON value (the value itself included), with its pointer and field name. */
export function subtrees(value: unknown, pointer = '', key?: string | number, into: Leaf[] = []): Leaf[] {
  if (Array.isArray(value)) {
    into.push({ pointer, key, value })
    for (let i = 0; i < value.length; i++) subtrees(value[i], `${pointer}/${i}`, i, into)
  } else if (typeof value === 'object' && value !== null) {
    into.push({ pointer, key, value })
    for (const k in value)
      subtrees((value as Record<string, unknown>)[k], `${pointer}/${escapeSegment(k)}`, k, into)
  }
  return into
}
