import { setTimeout as sleep } from 'node:timers/promises'
import { describe, expect, test } from 'vitest'
import { type LoadedScenario, loadScenarios } from '../scenario/loadScenarios'
import { Scenario } from '../scenario/schema'
import { runScheduled, scenarioClaims } from './schedule'

const scenario = (id: string, steps: unknown[], extra: Record<string, unknown> = {}): LoadedScenario => ({
  ...Scenario.parse({ id, title: id, spec: 's', steps, ...extra }),
  pack: 'p',
  file: `${id}.yaml`,
})

const http = (path: string, method = 'GET') => ({ http: { method, path } })

describe('scenarioClaims', () => {
  test('alone: clock, faults, a control API change, an oversized body; per-key state; accounts acted as or read', () => {
    expect(scenarioClaims(scenario('a', [{ clock: { advance: 5 } }])).alone).toMatch(/clock/)
    expect(scenarioClaims(scenario('b', [{ fault: { enable: ['x'] } }])).alone).toMatch(/faults/)
    expect(scenarioClaims(scenario('c', [http('/_devnet/prices', 'POST')])).alone).toMatch(/prices/)
    expect(scenarioClaims(scenario('d', [http('/_devnet/manifest')])).alone).toBeUndefined()
    expect(
      scenarioClaims(scenario('e', [{ http: { method: 'POST', path: '/x', oversizeBytes: 10 } }])).alone,
    ).toMatch(/oversized/)
    expect(scenarioClaims(scenario('f', [http('/deposit-processor/setup', 'POST')])).keyState).toBe(true)
    expect(scenarioClaims(scenario('g', [http('/deposit-processor/setup')])).keyState).toBe(false)
    // Quoting for account 0 over HTTP only reads it; signing as it acts as it.
    const quote = { http: { method: 'POST', path: '/intents/route', body: { a: '${accounts.0.address}' } } }
    expect(scenarioClaims(scenario('h', [quote]))).toMatchObject({ actsAs: [], reads: [0] })
    expect(
      scenarioClaims(scenario('i', [quote, { sign: { typedData: {}, account: 0 }, captureAs: 's' }])),
    ).toMatchObject({ actsAs: [0], reads: [] })
    // Funding a fresh account from account 1 claims nothing (transactions are queued per account).
    const fund = {
      chain: { action: 'transfer', chainId: 10, from: 1, to: '${fresh.0.address}', amount: '1' },
    }
    expect(scenarioClaims(scenario('j', [fund]))).toMatchObject({ actsAs: [], reads: [] })
    const approve = {
      chain: { action: 'approve', chainId: 10, from: 2, token: '0x1', spender: '0x2', amount: '1' },
    }
    expect(scenarioClaims(scenario('k', [approve])).actsAs).toEqual([2])
  })

  test('of the bundled packs: what runs alone, and what sets per-key state', async () => {
    const scenarios = await loadScenarios()
    const alone = scenarios.filter((s) => scenarioClaims(s).alone).map((s) => s.id)
    expect(alone.sort()).toEqual([
      'authentication.control-api',
      'bad-input.oversized-body',
      'deposits.bridge-5',
      'deposits.bridge-5-default',
      'quotes.blanc-quote-expiry',
    ])
    const actsAs0 = scenarios.filter((s) => scenarioClaims(s).actsAs.includes(0)).map((s) => s.id)
    expect(actsAs0).toEqual(
      expect.arrayContaining([
        'settlement.alps-lifecycle',
        'settlement.blanc-lifecycle',
        'withdrawals.single-executed',
      ]),
    )
  })
})

describe('runScheduled', () => {
  /** Runs the scenarios with each taking `ms`, and records which ran at the same time. */
  async function trace(scenarios: LoadedScenario[], keys: string[], concurrency = 8, ms = 20) {
    const running = new Set<string>()
    const overlaps: [string, string][] = []
    const keysSeen: Record<string, string | undefined> = {}
    await runScheduled({
      scenarios,
      concurrency,
      keys,
      run: async (index, key) => {
        const id = scenarios[index]!.id
        for (const other of running) overlaps.push([other, id].sort() as [string, string])
        running.add(id)
        keysSeen[id] = key
        await sleep(ms)
        running.delete(id)
      },
    })
    return {
      overlaps,
      keysSeen,
      together: (a: string, b: string) =>
        overlaps.some(([x, y]) => (x === a && y === b) || (x === b && y === a)),
    }
  }

  test('one that runs alone never overlaps; the others run side by side up to the concurrency', async () => {
    const list = [
      scenario('x1', [http('/a')]),
      scenario('clock', [{ clock: { advance: 1 } }]),
      scenario('x2', [http('/b')]),
      scenario('x3', [http('/c')]),
    ]
    const { overlaps, together } = await trace(list, ['k'])
    expect(overlaps.some(([a, b]) => a === 'clock' || b === 'clock')).toBe(false)
    expect(together('x1', 'x2') && together('x2', 'x3')).toBe(true)
    const serial = await trace(list, ['k'], 1)
    expect(serial.overlaps).toEqual([])
  })

  test('per-key state takes a free key; an account acted as is held by one scenario at a time', async () => {
    const setup = http('/deposit-processor/setup', 'POST')
    const signAs0 = { sign: { typedData: {}, account: 0 }, captureAs: 's' }
    const read0 = { http: { method: 'POST', path: '/q', body: { a: '${accounts.0.address}' } } }
    const list = [
      scenario('k1', [setup]),
      scenario('k2', [setup]),
      scenario('k3', [setup]),
      scenario('act1', [signAs0]),
      scenario('act2', [signAs0]),
      scenario('read1', [read0]),
      scenario('read2', [read0]),
    ]
    const one = await trace(list, ['only'])
    expect(one.together('k1', 'k2') || one.together('k2', 'k3') || one.together('k1', 'k3')).toBe(false)
    expect(one.together('act1', 'act2')).toBe(false)
    for (const reader of ['read1', 'read2'])
      for (const actor of ['act1', 'act2']) expect(one.together(reader, actor)).toBe(false)
    expect(one.together('read1', 'read2')).toBe(true)
    expect(one.keysSeen.k1).toBe('only')
    expect(one.keysSeen.act1).toBeUndefined()

    const three = await trace(list, ['a', 'b', 'c'])
    expect(three.together('k1', 'k2') && three.together('k2', 'k3')).toBe(true)
    expect(new Set([three.keysSeen.k1, three.keysSeen.k2, three.keysSeen.k3])).toEqual(
      new Set(['a', 'b', 'c']),
    )
  })

  test('the longest start first', async () => {
    const order: string[] = []
    const list = [scenario('short', [http('/a')]), scenario('long', [{ wait: 50 }, http('/a')])]
    await runScheduled({
      scenarios: list,
      concurrency: 1,
      keys: ['k'],
      run: async (index) => {
        order.push(list[index]!.id)
      },
    })
    expect(order).toEqual(['long', 'short'])
  })
})
