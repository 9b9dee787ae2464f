// biome-ignore-all lint/suspicious/noTemplateCurlyInString: the placeholders are what scenarios write
import { setTimeout as sleep } from 'node:timers/promises'
import { describe, expect, test } from 'vitest'
import { type LoadedScenario, loadScenarios } from '../scenario/loadScenarios'
import { Scenario } from '../scenario/schema'
import { onlyRefusals } from './refusedRequest'
import {
  aloneIn,
  BESIDE_ALONE,
  mayRunBesideAlone,
  runScheduled,
  scenarioClaims,
  setsKeyState,
} from './schedule'

const scenario = (id: string, steps: unknown[], extra: Record<string, unknown> = {}): LoadedScenario => ({
  ...Scenario.parse({ id, title: id, spec: 's', steps, ...extra }),
  pack: 'p',
  file: `${id}.yaml`,
})

const http = (path: string, method = 'GET') => ({ http: { method, path } })
const USDC = '0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913'
const DEAD = { address: '0x000000000000000000000000000000000000dEaD', accountType: 'EOA' }

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
    // authentication.control-api's POSTs to /_devnet/ go without the key: refused, they change nothing.
    expect(alone.sort()).toEqual([
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

describe('besideAlone: only requests the target must refuse for what they are', () => {
  const route = {
    destinationChainId: 8453,
    tokenRequests: [{ tokenAddress: USDC, amount: '1' }],
    account: DEAD,
  }
  const refused = (http: Record<string, unknown>, expect: Record<string, unknown> = { status: '4xx' }) => ({
    http: { method: 'POST', path: '/intents/route', ...http },
    expect,
  })
  const beside = (...steps: unknown[]) => mayRunBesideAlone(scenario('s', steps))

  test('admitted: no or a wrong key, an unknown version, no route, a body that is not JSON or breaks the schema', () => {
    expect(beside(refused({ apiKey: 'omit', body: route }))).toBe(true)
    expect(beside(refused({ apiKey: 'wrong', body: route }, { status: 401 }))).toBe(true)
    expect(beside(refused({ apiKey: { value: '${apiKey}X' }, body: route }))).toBe(true)
    expect(beside(refused({ version: { raw: '2026-09.zermatt' }, body: route }))).toBe(true)
    expect(beside(refused({ path: '/intent-operations', version: 'blanc', body: {} }, { status: 404 }))).toBe(
      true,
    )
    expect(beside(refused({ path: '/no-such-route' }, { status: 404 }))).toBe(true)
    expect(beside(refused({ rawBody: '{"destinationChainId": ' }))).toBe(true)
    expect(beside(refused({ body: { ...route, tokenRequests: 'USDC' } }))).toBe(true)
    // A refusal on the control API without its key.
    expect(beside(refused({ path: '/_devnet/clock/advance', apiKey: 'omit', body: { seconds: 1 } }))).toBe(
      true,
    )
  })

  test('not admitted: whatever a price, the clock or another scenario could change', () => {
    // A valid request expected to be refused: for its price (no route at these prices), its balance, …
    expect(beside(refused({ body: route }, { status: 422 }))).toBe(false)
    // A submit of a quote it captured, refused once expired: the clock decides.
    const quote = { http: { method: 'POST', path: '/intents/route', body: route }, expect: { status: 200 } }
    const submit = refused({ path: '/intents/${intentId}/submit', apiKey: 'omit', body: {} }, { status: 404 })
    expect(beside(quote, submit)).toBe(false)
    const signatures = { origin: ['${signature}'], destination: '${signature}' }
    expect(beside(refused({ path: '/intents/${intentId}/submit', body: { signatures } }))).toBe(false)
    // A deadline the runner computes (`${now}`): the body is not judged.
    expect(beside(refused({ body: { ...route, tokenRequests: '${now}' } }))).toBe(false)
    // An answer that may be a success, any status, not one, or a 5xx.
    expect(
      beside(refused({ apiKey: 'omit', body: route }, { anyOf: [{ status: 200 }, { status: '4xx' }] })),
    ).toBe(false)
    expect(beside(refused({ apiKey: 'omit', body: route }, {}))).toBe(false)
    expect(beside(refused({ apiKey: 'omit', body: route }, { status: { not: 200 } }))).toBe(false)
    expect(beside(refused({ apiKey: 'omit', body: route }, { status: '4xx', should: { status: 503 } }))).toBe(
      false,
    )
    // The run's own key; a public route, which needs none.
    expect(beside(refused({ apiKey: { value: '${apiKey}' }, body: route }))).toBe(false)
    expect(beside(refused({ method: 'GET', path: '/health', apiKey: 'omit' }))).toBe(false)
    // A poll waits for a state to change; a version the run picks (omit) with a valid body.
    expect(beside({ ...refused({ apiKey: 'omit', body: route }), poll: {} })).toBe(false)
    expect(
      beside(
        refused({
          version: 'omit',
          path: '/intents/1/submit',
          body: { signatures: { origin: ['0x00'], destination: '0x00' } },
        }),
      ),
    ).toBe(false)
    // Any step but a request; a funded account named; faults.
    for (const other of [{ clock: { advance: 1 } }, { wait: 1 }, { fault: { enable: ['x'] } }])
      expect(beside(refused({ apiKey: 'omit', body: route }), other)).toBe(false)
    expect(
      beside(refused({ apiKey: 'omit', body: { ...route, account: { address: '${accounts.0.address}' } } })),
    ).toBe(false)
    const faults = scenario('f', [refused({ apiKey: 'omit', body: route })], {
      requires: { capabilities: ['faults'] },
    })
    expect(mayRunBesideAlone(faults)).toBe(false)
  })

  test('of the bundled packs: each admitted one only sends requests it expects refused, none polls', async () => {
    const scenarios = await loadScenarios()
    const admitted = scenarios.filter(mayRunBesideAlone)
    for (const s of admitted)
      for (const step of [...s.steps, ...s.cleanup]) {
        expect('http' in step && !step.poll && onlyRefusals(step), `${s.id}: ${JSON.stringify(step)}`).toBe(
          true,
        )
        expect(JSON.stringify(step)).not.toMatch(/\$\{(now|quoteTtlSeconds|accounts\.)/)
      }
    expect(admitted.map((s) => s.id).sort()).toEqual([
      'authentication.missing-key',
      'authentication.wrong-key',
      'bad-input.huge-numbers',
      'bad-input.malformed-json',
      'bad-input.negative-amounts',
      'bad-input.oversized-body',
      'bad-input.wrong-types',
      'errors.envelopes',
      'errors.trace-ids',
      'versioning.empty-header',
      'versioning.known-versions',
      'versioning.malformed-header',
      'versioning.missing-header',
      'versioning.unknown-version',
      'versioning.version-paths',
      'versioning.version-paths-blanc',
    ])
    // A refused setup POST sets no key state (bad-input's malformed ones); a scenario that also
    // sets one does.
    const byId = new Map(scenarios.map((s) => [s.id, s]))
    expect(setsKeyState(byId.get('bad-input.malformed-json')!)).toBe(false)
    expect(setsKeyState(byId.get('deposit-processor.validation')!)).toBe(true)
  })

  test('an oversized body runs alone unless the target reads such a body whole', () => {
    const oversized = scenarioClaims(scenario('o', [refused({ oversizeBytes: 100_000 })]))
    expect(aloneIn(oversized)).toMatch(/oversized/)
    expect(aloneIn(oversized, true)).toBeUndefined()
    const clock = scenarioClaims(
      scenario('c', [refused({ oversizeBytes: 100_000 }), { clock: { advance: 1 } }]),
    )
    expect(aloneIn(clock, true)).toMatch(/clock/)
    // Faults win, whatever comes first.
    expect(
      scenarioClaims(scenario('f', [{ clock: { advance: 1 } }, { fault: { enable: ['x'] } }])).alone,
    ).toMatch(/faults/)
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

  test('requests the target must refuse run beside one that runs alone, a few at a time, never beside faults', async () => {
    const refusal = {
      http: { method: 'POST', path: '/intents/route', apiKey: 'omit', body: {} },
      expect: { status: 401 },
    }
    const refusals = ['r1', 'r2', 'r3', 'r4', 'r5'].map((id) => scenario(id, [refusal]))
    const list = [
      scenario('x1', [http('/a')]),
      scenario('clock', [{ clock: { advance: 1 } }]),
      scenario('faults', [{ fault: { enable: ['x'] } }]),
      ...refusals,
    ]
    const running = new Set<string>()
    let most = 0
    const beside: Record<string, string[]> = { clock: [], faults: [] }
    await runScheduled({
      scenarios: list,
      concurrency: 8,
      keys: ['k'],
      run: async (index) => {
        const id = list[index]!.id
        for (const alone of ['clock', 'faults'])
          if (running.has(alone)) beside[alone]!.push(id)
          else if (id === alone) beside[alone]!.push(...running)
        running.add(id)
        if (running.has('clock')) most = Math.max(most, running.size - 1)
        await sleep(id === 'clock' ? 60 : 20)
        running.delete(id)
      },
    })
    expect(beside.faults).toEqual([])
    expect(beside.clock!.length).toBeGreaterThan(0)
    expect(beside.clock!.every((id) => id.startsWith('r'))).toBe(true)
    expect(most).toBeLessThanOrEqual(BESIDE_ALONE)
  })

  test('an oversized body runs beside others when the target reads such a body whole', async () => {
    const list = [
      scenario('big', [
        { http: { method: 'POST', path: '/x', oversizeBytes: 100_000 }, expect: { status: 413 } },
      ]),
      scenario('x1', [http('/a')]),
    ]
    const alone = await trace(list, ['k'])
    expect(alone.together('big', 'x1')).toBe(false)
    const seen: string[] = []
    await runScheduled({
      scenarios: list,
      concurrency: 8,
      keys: ['k'],
      bodiesReadWhole: true,
      run: async (index) => {
        seen.push(`start ${list[index]!.id}`)
        await sleep(20)
        seen.push(`end ${list[index]!.id}`)
      },
    })
    expect(seen.slice(0, 2).sort()).toEqual(['start big', 'start x1'])
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
