import { describe, expect, test } from 'vitest'
import { loadScenarios } from '../scenario/loadScenarios'
import { InvalidShardError, parseShard, selectShard, stableHash } from './shard'

describe('sharding', () => {
  test('parses I/N and refuses the rest', () => {
    expect(parseShard('2/3')).toEqual({ index: 2, total: 3 })
    for (const bad of ['0/2', '3/2', '1', 'a/b', '1/0'])
      expect(() => parseShard(bad)).toThrow(InvalidShardError)
  })

  test('the hash is stable (pinned values)', () => {
    expect(stableHash('versioning.missing-header')).toBe(stableHash('versioning.missing-header'))
    expect([stableHash(''), stableHash('a')]).toEqual([0x811c9dc5, 0xe40c292c])
  })

  test('the shards of N partition the scenarios, whatever their order', async () => {
    const scenarios = await loadScenarios()
    for (const total of [1, 2, 3, 5]) {
      const shards = Array.from({ length: total }, (_, i) => selectShard(scenarios, { index: i + 1, total }))
      expect(
        shards
          .flat()
          .map((s) => s.id)
          .sort(),
      ).toEqual(scenarios.map((s) => s.id).sort())
      const reversed = Array.from({ length: total }, (_, i) =>
        selectShard([...scenarios].reverse(), { index: i + 1, total }),
      )
      expect(reversed.map((shard) => shard.map((s) => s.id).sort())).toEqual(
        shards.map((shard) => shard.map((s) => s.id).sort()),
      )
    }
    const halves = [1, 2].map((index) => selectShard(scenarios, { index, total: 2 }).length)
    expect(Math.min(...halves)).toBeGreaterThan(0)
  })

  test('a scenario stays in its shard when others are added', () => {
    const ids = Array.from({ length: 50 }, (_, i) => ({ id: `s${i}` }))
    const before = selectShard(ids.slice(0, 25), { index: 1, total: 3 }).map((s) => s.id)
    const after = selectShard(ids, { index: 1, total: 3 }).map((s) => s.id)
    expect(after.filter((id) => before.includes(id) || Number(id.slice(1)) >= 25)).toEqual(after)
    expect(before.every((id) => after.includes(id))).toBe(true)
  })
})
