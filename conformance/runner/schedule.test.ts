import { setTimeout as sleep } from 'node:timers/promises'
import { describe, expect, test } from 'vitest'
import { type LoadedScenario, loadScenarios } from '../scenario/loadScenarios'
import { Scenario } from '../scenario/schema'
import { assignAccounts, runScheduled, scenarioClaims } from './schedule'

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
      // A day of devnet clock (the outbox's retry window): alone, ~1 s of the packs' wall time.
      'webhooks.devnet-outbox-failed',
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

describe('assignAccounts', () => {
  const claim = (actsAs: number[], reads: number[], uses = [...actsAs, ...reads]) => ({ actsAs, reads, uses })

  test('the named accounts when free; else other free ones, distinct, as a permutation', () => {
    expect(assignAccounts(claim([0], []), 3, [])).toEqual({
      accounts: undefined,
      hold: { actsAs: [0], reads: [], uses: [0] },
    })
    // Account 0 is acted as: an actor of 0 takes 1, a reader of 0 takes 1 too (not beside the actor).
    const actor = { actsAs: [0], reads: [], uses: [0] }
    expect(assignAccounts(claim([0], []), 3, [actor])).toEqual({
      accounts: [1, 0, 2],
      hold: { actsAs: [1], reads: [], uses: [1] },
    })
    expect(assignAccounts(claim([], [0]), 3, [actor])?.hold.reads).toEqual([1])
    // Acting as 0 and 1 while 0 and 2 are held: 1 keeps 1, 0 gets 3.
    const held = [actor, { actsAs: [], reads: [2], uses: [2] }]
    expect(assignAccounts(claim([0, 1], []), 4, held)?.accounts).toEqual([3, 1, 2, 0])
    // Readers share an account; an actor waits when every account is held.
    expect(
      assignAccounts(claim([], [0]), 1, [{ actsAs: [], reads: [0], uses: [0] }])?.accounts,
    ).toBeUndefined()
    expect(assignAccounts(claim([0], []), 2, [actor, { actsAs: [1], reads: [], uses: [1] }])).toBeUndefined()
    // One only sent from (a transfer) takes the least used account.
    expect(
      assignAccounts(claim([], [], [0]), 3, [actor, { actsAs: [], reads: [], uses: [1] }])?.hold,
    ).toEqual({
      actsAs: [],
      reads: [],
      uses: [2],
    })
    // An index the target does not fund stays itself (its step reports the missing account).
    expect(assignAccounts(claim([5], []), 2, [])?.hold.actsAs).toEqual([5])
  })
})

describe('runScheduled', () => {
  /** Runs the scenarios with each taking `ms`, and records which ran at the same time. */
  async function trace(scenarios: LoadedScenario[], keys: string[], concurrency = 8, ms = 20, accounts = 0) {
    const running = new Set<string>()
    const overlaps: [string, string][] = []
    const keysSeen: Record<string, string | undefined> = {}
    const accountsSeen: Record<string, readonly number[] | undefined> = {}
    await runScheduled({
      scenarios,
      concurrency,
      keys,
      accounts,
      run: async (index, key, mapped) => {
        const id = scenarios[index]!.id
        for (const other of running) overlaps.push([other, id].sort() as [string, string])
        running.add(id)
        keysSeen[id] = key
        accountsSeen[id] = mapped
        await sleep(ms)
        running.delete(id)
      },
    })
    return {
      overlaps,
      keysSeen,
      accountsSeen,
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

  test('with several funded accounts, actors of the same index run side by side on different accounts', async () => {
    const signAs0 = { sign: { typedData: {}, account: 0 }, captureAs: 's' }
    const read0 = { http: { method: 'POST', path: '/q', body: { a: '${accounts.0.address}' } } }
    const list = [
      scenario('act1', [signAs0]),
      scenario('act2', [signAs0]),
      scenario('read1', [read0]),
      scenario('clock', [signAs0, { clock: { advance: 1 } }]),
    ]
    const three = await trace(list, ['k'], 8, 20, 3)
    expect(three.together('act1', 'act2') && three.together('act1', 'read1')).toBe(true)
    const actors = [three.accountsSeen.act1, three.accountsSeen.act2, three.accountsSeen.read1]
    // Each stands for a different funded account; one keeps its own (no mapping).
    expect(new Set(actors.map((a) => a?.[0] ?? 0))).toEqual(new Set([0, 1, 2]))
    expect(actors.filter((a) => a === undefined)).toHaveLength(1)
    // One that runs alone takes the accounts it names.
    expect(three.accountsSeen.clock).toBeUndefined()
    expect(three.overlaps.some(([a, b]) => a === 'clock' || b === 'clock')).toBe(false)
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
