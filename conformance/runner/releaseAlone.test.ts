import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { setTimeout as sleep } from 'node:timers/promises'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { type LoadedScenario, loadScenarios } from '../scenario/loadScenarios'
import { Scenario } from '../scenario/schema'
import { runScenario } from './runScenario'
import type { ScenarioContext } from './scenarioContext'
import { aloneSteps, runScheduled } from './schedule'
import type { TargetCapabilities } from './types'

// A scenario that must run alone is released after its last step that makes it so: the rest
// of it runs beside other scenarios (schedule.ts aloneSteps, runScheduled's release).

const scenario = (id: string, steps: unknown[], extra: Record<string, unknown> = {}): LoadedScenario => ({
  ...Scenario.parse({ id, title: id, spec: 's', steps, ...extra }),
  pack: 'p',
  file: `${id}.yaml`,
})

const http = (path: string, method = 'GET') => ({ http: { method, path }, expect: { status: 200 } })

describe('aloneSteps', () => {
  test('the steps up to the last one that makes the scenario alone, cleanup included', () => {
    expect(aloneSteps(scenario('a', [http('/a'), { clock: { advance: 5 } }, { wait: 10 }]))).toBe(2)
    expect(
      aloneSteps(
        scenario('b', [http('/_devnet/prices', 'POST'), http('/a')], {
          cleanup: [http('/_devnet/prices', 'POST')],
        }),
      ),
    ).toBe(3)
    expect(aloneSteps(scenario('c', [http('/a'), { wait: 10 }]))).toBeUndefined()
    // Alone by its capability, whatever its steps: released only when it ends.
    expect(
      aloneSteps(
        scenario('d', [{ clock: { advance: 5 } }, http('/a')], { requires: { capabilities: ['faults'] } }),
      ),
    ).toBeUndefined()
  })

  test('of the bundled packs: the outbox scenario is released after its day of clock, before its 600 ms wait', async () => {
    const scenarios = await loadScenarios()
    const failed = scenarios.find((s) => s.id === 'webhooks.devnet-outbox-failed')!
    const until = aloneSteps(failed)!
    expect(failed.steps[until - 1]).toHaveProperty('clock')
    expect(failed.steps.slice(until).some((step) => 'wait' in step)).toBe(true)
  })
})

describe('runScenario: onAloneDone', () => {
  let server: Server
  let log: string[]
  let context: ScenarioContext
  beforeAll(async () => {
    server = createServer((request, response) => {
      log.push(`${request.method} ${request.url}`)
      request.resume()
      request.on('end', () => {
        response.setHeader('content-type', 'application/json')
        response.end('{}')
      })
    })
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    const target = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
    const caps: TargetCapabilities = {
      target,
      controlApi: true,
      faults: true,
      chains: [],
      accounts: [],
      versions: ['alps', 'blanc'],
      webhooks: false,
      contracts: {},
      tokens: {},
      implemented: {},
    }
    context = { target, apiKey: 'k', caps, timeoutMs: 10_000, ownSimulator: true }
  })
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())))

  /** Runs the scenario and returns what the target saw, with `release` where the hook was called. */
  async function trace(steps: unknown[], cleanup: unknown[] = []) {
    log = []
    const result = await runScenario(scenario('s', steps, { cleanup }), context, {
      onAloneDone: () => void log.push('release'),
    })
    return { log, result }
  }

  test('called after the clock step and before the next one, not before', async () => {
    const { log, result } = await trace([http('/a'), { clock: { advance: 5 } }, http('/b'), { wait: 1 }])
    expect(result.status).toBe('passed')
    expect(log).toEqual(['GET /a', 'POST /_devnet/clock/advance', 'release', 'GET /b'])
  })

  test('after the cleanup that puts the prices back; not at all when the change is the last step', async () => {
    const withCleanup = await trace(
      [http('/_devnet/prices', 'POST'), http('/a')],
      [http('/_devnet/prices', 'POST'), http('/c')],
    )
    expect(withCleanup.log).toEqual([
      'POST /_devnet/prices',
      'GET /a',
      'POST /_devnet/prices',
      'release',
      'GET /c',
    ])
    const last = await trace([http('/a'), http('/_devnet/prices', 'POST')])
    expect(last.log).toEqual(['GET /a', 'POST /_devnet/prices'])
  })

  test('a scenario stopped before its clock step is released once the steps left are past it', async () => {
    const { log, result } = await trace(
      [
        { http: { method: 'GET', path: '/a' }, expect: { status: 201 } },
        { clock: { advance: 5 } },
        http('/b'),
      ],
      [http('/c')],
    )
    expect(result.status).toBe('failed')
    expect(log).toEqual(['GET /a', 'release', 'GET /c'])
  })

  test('a fault left on keeps it alone to its end', async () => {
    const on = await trace([{ fault: { enable: ['slow'] } }, http('/a')])
    expect(on.log).toEqual(['POST /_devnet/faults', 'GET /a', 'POST /_devnet/faults'])
    const off = await trace([{ fault: { enable: ['slow'] } }, { fault: { disable: ['slow'] } }, http('/a')])
    expect(off.log).toEqual(['POST /_devnet/faults', 'POST /_devnet/faults', 'release', 'GET /a'])
  })
})

describe('runScheduled: release', () => {
  const signAs0 = { sign: { typedData: {}, account: 0 }, captureAs: 's' }
  const setup = http('/deposit-processor/setup', 'POST')

  /**
   * Runs the scenarios; those named in `releaseAfter` call release after that many ms and end
   * `ms` later; every other takes `ms`. Returns the events in order.
   */
  async function trace(
    scenarios: LoadedScenario[],
    options: { keys?: string[]; accounts?: number; ms?: number; releaseAfter?: Record<string, number> },
  ) {
    const { keys = ['k'], accounts = 0, ms = 30, releaseAfter = {} } = options
    const events: string[] = []
    const running = new Set<string>()
    const overlaps: [string, string][] = []
    const seen: Record<string, { key: string | undefined; accounts: readonly number[] | undefined }> = {}
    await runScheduled({
      scenarios,
      concurrency: 8,
      keys,
      accounts,
      run: async (index, key, mapped, release) => {
        const id = scenarios[index]!.id
        for (const other of running) overlaps.push([other, id])
        running.add(id)
        seen[id] = { key, accounts: mapped }
        events.push(`start ${id}`)
        const after = releaseAfter[id]
        if (after !== undefined) {
          await sleep(after)
          events.push(`release ${id}`)
          release()
        }
        await sleep(ms)
        running.delete(id)
        events.push(`end ${id}`)
      },
    })
    const together = (a: string, b: string) =>
      overlaps.some(([x, y]) => (x === a && y === b) || (x === b && y === a))
    return { events, together, seen }
  }

  test('others start beside the rest of a released one; the next alone one waits for its end', async () => {
    const list = [
      scenario('x1', [http('/a')]),
      scenario('clock1', [{ clock: { advance: 1 } }, { wait: 500 }]),
      scenario('clock2', [{ clock: { advance: 1 } }]),
      scenario('x2', [http('/b')]),
    ]
    const { events, together } = await trace(list, { releaseAfter: { clock1: 10, clock2: 10 } })
    // clock2 (the shorter rest) first; it is released, but clock1 may not start before it ends.
    expect(events.slice(0, 5)).toEqual([
      'start clock2',
      'release clock2',
      'end clock2',
      'start clock1',
      'release clock1',
    ])
    // Beside clock1's rest, the others run; none started before its release.
    expect(together('clock1', 'x1') && together('clock1', 'x2')).toBe(true)
    expect(together('clock1', 'clock2')).toBe(false)
    expect(events.indexOf('start x1')).toBeGreaterThan(events.indexOf('release clock1'))
  })

  test('without a release, nothing runs beside it', async () => {
    const list = [scenario('clock', [{ clock: { advance: 1 } }]), scenario('x', [http('/a')])]
    const { together, events } = await trace(list, {})
    expect(together('clock', 'x')).toBe(false)
    expect(events).toEqual(['start clock', 'end clock', 'start x', 'end x'])
  })

  test('a released one keeps its key and the accounts it acts as', async () => {
    const list = [
      scenario('alone', [setup, signAs0, { clock: { advance: 1 } }, { wait: 100 }]),
      scenario('k1', [setup]),
      scenario('act', [signAs0]),
    ]
    // One key, one funded account: both others wait for the released one's end.
    const one = await trace(list, { keys: ['only'], accounts: 1, releaseAfter: { alone: 5 } })
    expect(one.together('alone', 'k1') || one.together('alone', 'act')).toBe(false)
    // Two keys, two accounts: both run beside its rest, on the other key and account.
    const two = await trace(list, { keys: ['a', 'b'], accounts: 2, releaseAfter: { alone: 5 } })
    expect(two.together('alone', 'k1') && two.together('alone', 'act')).toBe(true)
    expect(two.seen.k1!.key).not.toBe(two.seen.alone!.key)
    expect(two.seen.act!.accounts).toEqual([1, 0])
  })
})
