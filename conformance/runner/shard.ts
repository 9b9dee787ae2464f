import { BaseError } from '../../spec/BaseError'

/** Thrown when `--shard` is not of the form `I/N` with 1 ≤ I ≤ N. */
export class InvalidShardError extends BaseError {
  override name = 'Conformance.InvalidShardError'
}

/** A shard of a run: the `index`-th of `total` (1-based). */
export type Shard = { index: number; total: number }

/**
 * Parses `--shard I/N`.
 *
 * @example
 * parseShard('2/3') // { index: 2, total: 3 }
 */
export function parseShard(value: string): Shard {
  const match = /^(\d+)\/(\d+)$/.exec(value.trim())
  const index = Number(match?.[1])
  const total = Number(match?.[2])
  if (!match || total < 1 || index < 1 || index > total)
    throw new InvalidShardError(`--shard must be I/N with 1 <= I <= N, got "${value}".`)
  return { index, total }
}

/** FNV-1a, 32 bits: a stable hash that does not depend on the platform or the run. */
export function stableHash(text: string): number {
  let hash = 0x811c9dc5
  for (const byte of Buffer.from(text, 'utf8')) {
    hash ^= byte
    hash = Math.imul(hash, 0x01000193) >>> 0
  }
  return hash
}

/**
 * The scenarios of one shard: those whose id hashes to it. The same id always lands in the same
 * shard, whatever else is in the run, and the shards of N partition the scenarios.
 *
 * @example
 * selectShard(scenarios, { index: 1, total: 2 })
 */
export function selectShard<T extends { id: string }>(scenarios: readonly T[], shard: Shard): T[] {
  return scenarios.filter((s) => stableHash(s.id) % shard.total === shard.index - 1)
}
