import { type Address, type Hex, numberToHex } from 'viem'

/**
 * The Compact v1's lock tags and lock ids (facts §3), pure: the devnet's funding, quoting and
 * withdrawals compute them, and so does the fuzzer for the locks it reads (conformance/fuzz).
 */

/** The Compact v1's reset periods, by their enum index. */
export const ResetPeriod = {
  OneSecond: 0,
  FifteenSeconds: 1,
  OneMinute: 2,
  TenMinutes: 3,
  OneHourAndFiveMinutes: 4,
  OneDay: 5,
  SevenDaysAndOneHour: 6,
  ThirtyDays: 7,
} as const

/** The Compact v1's scopes: a multichain lock may back elements on other chains. */
export const Scope = { Multichain: 0, ChainSpecific: 1 } as const

/**
 * The compact flag of an allocator address: its leading zero nibbles z give 0 if z < 4,
 * 15 if z >= 18, else z - 3 (The Compact v1).
 */
export function compactFlag(allocator: Address): number {
  const zeros = allocator.slice(2).match(/^0*/)?.[0].length ?? 0
  if (zeros < 4) return 0
  if (zeros >= 18) return 15
  return zeros - 3
}

/** `allocatorId` (uint96) = compactFlag << 88 | the low 88 bits of the allocator address. */
export function toAllocatorId(allocator: Address): bigint {
  return (BigInt(compactFlag(allocator)) << 88n) | (BigInt(allocator) & ((1n << 88n) - 1n))
}

/** Parameters of {@link toLockTag}. */
export type ToLockTagParameters = {
  allocator: Address
  scope?: number | undefined
  resetPeriod?: number | undefined
}

/**
 * A lock tag (bytes12): `scope << 95 | resetPeriod << 92 | allocatorId`, i.e. the top 12 bytes
 * of a lock id. Default scope Multichain, reset period TenMinutes: the devnet's deposits.
 *
 * @example
 * toLockTag({ allocator: addresses.allocator }) // 0x3f00000000000000a110ca70
 */
export function toLockTag(parameters: ToLockTagParameters): Hex {
  const { allocator, scope = Scope.Multichain, resetPeriod = ResetPeriod.TenMinutes } = parameters
  const tag = (BigInt(scope) << 95n) | (BigInt(resetPeriod) << 92n) | toAllocatorId(allocator)
  return numberToHex(tag, { size: 12 })
}

/** A lock id: lockTag (12 bytes) ‖ token (20 bytes; the zero address for native ETH). */
export function toLockId(lockTag: Hex, token: Address): bigint {
  return (BigInt(lockTag) << 160n) | BigInt(token)
}
