import { z } from 'zod'

/** The largest value of a uint256: amounts and ids beyond it are refused (spec: Resources, notation). */
export const MAX_UINT256 = 2n ** 256n - 1n

/** The API versions the spec names (spec: Versioning §3). alps first: it is the default. */
export const API_VERSIONS = ['2026-01.alps', '2026-04.blanc'] as const
export type ApiVersion = (typeof API_VERSIONS)[number]

/** Pattern of the `x-api-version` header (spec: Versioning §1). */
export const API_VERSION_PATTERN = /^\d{4}-\d{2}\.[a-z0-9]+$/

/** `address`: a 0x-prefixed 20-byte hex string (spec: Resources, notation). */
export const Address = z.string().regex(/^0x[0-9a-fA-F]{40}$/, 'must be a 0x-prefixed 20-byte hex address')

/** `hex`: a 0x-prefixed hex string (spec: Resources, notation). */
export const Hex = z.string().regex(/^0x[0-9a-fA-F]*$/, 'must be a 0x-prefixed hex string')

/** `hex` that carries bytes, such as call data: whole bytes, an even number of digits (spec: Resources, notation). */
export const HexBytes = Hex.refine(
  (value) => value.length % 2 === 0,
  'must be 0x-prefixed hex of whole bytes (an even number of hex digits)',
)

/** A 32-byte hex value: transaction hashes, claim hashes (spec: Resources, notation, `hex`). */
export const Hash = z.string().regex(/^0x[0-9a-fA-F]{64}$/, 'must be a 0x-prefixed 32-byte hex string')

/**
 * `amount string` / integer string: a base-10 integer string in raw token units that fits in
 * a uint256 (spec: Resources, notation). Negative numbers, decimals and exponents are refused.
 */
export const IntegerString = z
  .string()
  .regex(/^\d+$/, { message: 'must be a base-10 integer string (digits only)', abort: true })
  .refine((value) => value.length <= 78 && BigInt(value) <= MAX_UINT256, 'must not exceed 2^256 - 1')

/** A JSON number that is a non-negative safe integer, so no precision is lost (spec: Resources, `number` fields). */
export const SafeInteger = z
  .number()
  .int('must be an integer')
  .nonnegative('must not be negative')
  .refine(
    (value) => Number.isSafeInteger(value),
    'must be a safe integer (at most 2^53 - 1); send larger values as a string',
  )

/**
 * An integer the spec types as `number`, also accepted as an integer string: the public SDK
 * sends all integers as strings, and raw token amounts outgrow JSON's safe integers
 * (spec: Versioning §4, widened request validation).
 */
export const IntegerLike = z.union([SafeInteger, IntegerString], {
  error: 'must be a non-negative integer: a JSON number up to 2^53 - 1, or a base-10 integer string',
})

/** A chain id in a map key: a decimal string (spec: Resources, notation). */
export const ChainIdKey = z.string().regex(/^\d+$/, 'must be a chain id as a decimal string')

/** A CAIP-2 chain id of the form `eip155:<chain_id>` (spec: Deposit-processor configuration). */
export const Caip2ChainId = z
  .string()
  .regex(/^eip155:\d+$/, 'must be a CAIP-2 chain id of the form eip155:<chain_id>')

/**
 * A map keyed by CAIP-2 chain ids (spec: Deposit-processor configuration); a bad key is named
 * in the error, which zod's record keys do not do by themselves.
 */
export function caip2Record<T extends z.ZodType>(value: T) {
  return z.record(z.string(), value).superRefine((record, ctx) => {
    for (const key of Object.keys(record)) {
      if (!Caip2ChainId.safeParse(key).success)
        ctx.addIssue({
          code: 'custom',
          path: [key],
          message: `key '${key}' must be a CAIP-2 chain id of the form eip155:<chain_id>`,
        })
    }
  })
}

/** Converts an {@link IntegerLike} value to a bigint. */
export function toBigInt(value: number | string): bigint {
  return typeof value === 'number' ? BigInt(value) : BigInt(value)
}
