// biome-ignore-all lint/suspicious/noTemplateCurlyInString: the placeholders are what scenarios write
import { setTimeout as sleep } from 'node:timers/promises'
import { describe, expect, test } from 'vitest'
import { type LoadedScenario, loadScenarios } from '../scenario/loadScenarios'
import { Scenario } from '../scenario/schema'
import { EVERY_PART } from './observedState'
import { prepareSchedule } from './prepareSchedule'
import { mayRunBesideAlone, runScheduled, scenarioClaims } from './schedule'

const scenario = (id: string, steps: unknown[]): LoadedScenario => ({
  ...Scenario.parse({ id, title: id, spec: 's', steps }),
  pack: 'p',
  file: `${id}.yaml`,
})
const http = (path: string, method = 'GET', body?: unknown) => ({ http: { method, path, body } })
const setup = http('/deposit-processor/setup', 'POST', { params: { webhookUrl: null } })
const events = http('/deposit-processor/webhooks/events')
const quote = http('/intents/route', 'POST', { destinationChainId: 8453 })
const prices = http('/_devnet/prices', 'POST', { prices: { USDC: 0.97 } })

describe('the parts of the target state a scenario changes and observes', () => {
  test('changes: prices and the clock each alone; any other control request, or an oversized body, every part', () => {
    expect(scenarioClaims(scenario('p', [prices])).changes).toEqual(['prices'])
    expect(scenarioClaims(scenario('c', [{ clock: { advance: 5 } }])).changes).toEqual(['clock'])
    expect(
      scenarioClaims(scenario('a', [http('/_devnet/clock/advance', 'POST', { seconds: 5 })])).changes,
    ).toEqual(['clock'])
    expect([...scenarioClaims(scenario('s', [http('/_devnet/snapshot', 'POST')])).changes].sort()).toEqual(
      [...EVERY_PART].sort(),
    )
    const oversized = { http: { method: 'POST', path: '/intents/route', oversizeBytes: 10 } }
    expect(scenarioClaims(scenario('o', [oversized])).changes).toHaveLength(3)
    expect(scenarioClaims(scenario('q', [quote])).changes).toEqual([])
  })

  test('observes: by the routes its requests go to, and the clock by any step but requests and waits', () => {
    const observes = (...steps: unknown[]) => scenarioClaims(scenario('x', steps)).observes
    expect(observes(setup, http('/deposit-processor/setup'), { wait: 10 })).toEqual(['other'])
    // The outbox retries by the clock; nothing it lists is priced by it.
    expect(observes(setup, events)).toEqual(['clock', 'other'])
    expect(observes(quote)).toEqual(EVERY_PART)
    // Registering an account: its deposits are priced (bridged at a price).
    expect(observes(http('/deposit-processor/register', 'POST', { account: '0x1' }))).toEqual(EVERY_PART)
    expect(observes(http('/withdrawals', 'POST', { amount: 1 }))).toEqual(['clock', 'other'])
    // Balances in token units: no price in them.
    expect(observes(http('/accounts/0x1/portfolio'))).toEqual(['clock', 'other'])
    // A path outside the route table: anything.
    expect(observes(http('/openapi.json'))).toEqual(EVERY_PART)
    // A chain step, a signature, a webhook, the runner's `${now}`: the clock.
    const transfer = { chain: { action: 'transfer', chainId: 10, from: 0, to: '0x1', amount: '1' } }
    expect(observes(setup, transfer)).toEqual(['clock', 'other'])
    expect(observes(setup, { webhook: { type: 'test', withinSeconds: 1, signature: 'present' } })).toEqual([
      'clock',
      'other',
    ])
    expect(observes(http('/deposit-processor/setup', 'POST', { params: { at: '${now}' } }))).toEqual([
      'clock',
      'other',
    ])
  })

  test('of the bundled packs: what each that runs alone changes, and which others observe neither prices nor the clock', async () => {
    const scenarios = await loadScenarios()
    const changes = Object.fromEntries(
      scenarios.filter((s) => scenarioClaims(s).alone).map((s) => [s.id, scenarioClaims(s).changes]),
    )
    expect(changes).toEqual({
      'bad-input.oversized-body': ['clock', 'other', 'prices'],
      'deposits.bridge-5': ['prices'],
      'deposits.bridge-5-default': ['prices'],
      'quotes.blanc-quote-expiry': ['clock'],
      'webhooks.devnet-outbox-failed': ['clock'],
    })
    const unpriced = (s: LoadedScenario) =>
      !scenarioClaims(s).alone && !mayRunBesideAlone(s) && !scenarioClaims(s).observes.includes('prices')
    expect(
      scenarios
        .filter(unpriced)
        .map((s) => `${s.id} ${scenarioClaims(s).observes.join(',')}`)
        .sort(),
    ).toEqual([
      'deposit-processor.clear-each-field other',
      'deposit-processor.partial-update other',
      'deposit-processor.validation other',
      'quotes.devnet-portfolio clock,other',
      'webhooks.devnet-outbox clock,other',
      'withdrawals.batch-executed clock,other',
      'withdrawals.batch-schema clock,other',
      'withdrawals.exact-balance clock,other',
      'withdrawals.single-executed clock,other',
      'withdrawals.single-schema clock,other',
    ])
    await prepareSchedule(scenarios)
  })
})

describe('runScheduled: beside one that changes prices or the clock', () => {
  async function trace(scenarios: LoadedScenario[], sharedTarget = false, ms = 20) {
    const running = new Set<string>()
    const overlaps: string[] = []
    const order: string[] = []
    await runScheduled({
      scenarios,
      concurrency: 8,
      keys: ['a', 'b', 'c', 'd'],
      sharedTarget,
      run: async (index) => {
        const id = scenarios[index]!.id
        order.push(id)
        for (const other of running) overlaps.push([other, id].sort().join('+'))
        running.add(id)
        await sleep(ms)
        running.delete(id)
      },
    })
    return { order, together: (a: string, b: string) => overlaps.includes([a, b].sort().join('+')) }
  }

  test('those that observe none of its change run beside it; the others wait for its end', async () => {
    const list = [
      scenario('quote', [quote]),
      scenario('setup', [setup]),
      scenario('outbox', [setup, events]),
      scenario('prices', [prices, { wait: 60 }]),
    ]
    const { together } = await trace(list)
    expect(together('prices', 'setup') && together('prices', 'outbox')).toBe(true)
    expect(together('prices', 'quote')).toBe(false)
    // A target other runs may judge too (--target): they would only wait for its hold.
    const shared = await trace(list, true)
    expect(shared.together('prices', 'setup') || shared.together('prices', 'outbox')).toBe(false)
  })

  test('the clock first when more observe it; beside it only what observes neither it nor the prices still to change', async () => {
    const list = [
      // It waits for a webhook: it observes the clock too.
      scenario('prices', [prices, { webhook: { type: 'test', withinSeconds: 1, signature: 'present' } }]),
      scenario('clock', [{ clock: { advance: 5 } }, { wait: 40 }]),
      scenario('outbox', [setup, events]),
      scenario('setup', [setup]),
      scenario('quote', [quote]),
    ]
    const { order, together } = await trace(list)
    expect(order.indexOf('clock')).toBeLessThan(order.indexOf('prices'))
    expect(together('clock', 'setup')).toBe(true)
    // The outbox observes the clock: it starts after the clock's end, beside the prices.
    expect(together('clock', 'outbox') || together('clock', 'quote') || together('clock', 'prices')).toBe(
      false,
    )
    expect(together('prices', 'outbox')).toBe(true)
    expect(together('prices', 'quote')).toBe(false)
  })

  test('a change of the prices and one of the clock run side by side when neither observes the other', async () => {
    const list = [
      scenario('prices', [prices, { wait: 40 }]),
      scenario('clock', [{ clock: { advance: 5 } }, { wait: 40 }]),
    ]
    expect((await trace(list)).together('prices', 'clock')).toBe(true)
  })
})
