import { describe, expect, test } from 'vitest'
import type { CheckResult, HttpExcerpt, RunResult, ScenarioResult } from '../runner/types'
import { renderJson, renderJsonBytes, renderScenariosAsTheyEnd } from './json'
import { reportBytes, scenarioBytes } from './stringifyReport'
import { runResultOf } from './testing/runResult'

/** Values JSON.stringify writes in its own ways: everything the walked levels must copy. */
function awkward(): Record<string, unknown> {
  const sparse: unknown[] = [1]
  sparse[3] = 'after a hole'
  const bare = Object.create(null) as Record<string, unknown>
  bare.z = 1
  bare['2'] = 'an index key comes first'
  const shared = { body: 'line 1\nline 2 "quoted" \u2028 \ud800', nested: [{ a: [] }, {}] }
  return {
    string: 'tab\t, newline\n, quote ", backslash \\, control \u0001, emoji 🦊, … § é',
    'key "quoted"\n': true,
    10: 'numeric key',
    numbers: [0, -0, 1.5e300, Number.NaN, Number.POSITIVE_INFINITY, -1],
    absent: undefined,
    fn: () => 1,
    symbol: Symbol('s'),
    inArray: [undefined, () => 1, Symbol('s'), null],
    sparse,
    empty: { object: {}, array: [], onlyUndefined: { a: undefined } },
    date: new Date(0),
    toJson: { toJSON: () => ({ replaced: [1, 2] }) },
    boxed: [new Number(3), new String('s'), new Boolean(false)],
    map: new Map([[1, 2]]),
    bare,
    class: new (class Point {
      x = 1
    })(),
    shared: [shared, shared, { again: shared, deeper: { still: shared } }],
  }
}

function check(step: number, name: string, exchange: HttpExcerpt): CheckResult {
  const id = `pack.one/${step}/${name}`
  return { id, scenarioId: 'pack.one', step, name, spec: '§1', status: 'passed', exchange }
}

/** A run whose checks share their step's exchange object, as the runner records them. */
function sharedRun(): RunResult {
  const first: HttpExcerpt = {
    request: {
      method: 'POST',
      url: 'http://127.0.0.1:1/a',
      headers: { 'x-api-key': '<api key>' },
      body: '{"a":\n1}',
    },
    response: { status: 200, headers: { 'content-type': 'application/json' }, body: '{"ok":true}' },
  }
  const second: HttpExcerpt = {
    request: { method: 'GET', url: 'http://127.0.0.1:1/b', headers: {} },
    error: 'ECONNRESET',
  }
  const scenarios: ScenarioResult[] = [
    {
      id: 'pack.one',
      title: 'One',
      pack: 'pack',
      file: 'scenarios/pack/one.yaml',
      spec: '§1',
      status: 'passed',
      checks: [
        check(1, 'status', first),
        { ...check(1, 'body /ok', first), expected: { equals: true }, actual: true, level: 'SHOULD' },
        check(2, 'request', second),
        check(2, 'status', second),
      ],
      durationMs: 3,
      stepsMs: [1, 2],
      startMs: 0,
      notes: undefined,
    },
  ]
  return runResultOf(scenarios, { controlApi: true }, 3)
}

describe('reportBytes', () => {
  const same = (report: object, token?: string) => {
    const bytes = reportBytes(report, token)
    const text = `${JSON.stringify(report, null, 2)}\n`
    expect(bytes.toString()).toBe(text)
    expect(bytes.equals(Buffer.from(text))).toBe(true)
  }

  test('is the UTF-8 of what JSON.stringify(report, null, 2) writes, whatever the scenarios and checks hold', () => {
    const value = awkward()
    const exchange = { request: value, response: { status: 200, body: 'a\nb', headers: {} } }
    const check = { id: 'x/1/status', step: 1, exchange, expected: value, actual: [value], absent: undefined }
    const scenario = { id: 'x', notes: undefined, checks: [check, { ...check, name: 'again' }, check] }
    const sparse: unknown[] = [{ ...scenario }]
    const checks: unknown[] = [{ exchange: undefined }, { exchange: null }, { exchange: [exchange] }]
    checks[5] = check // holes before it
    sparse[2] = { checks }
    same({ scenarios: [scenario, scenario] })
    same({ before: value, scenarios: sparse, after: { exchange } })
    same({ scenarios: [{ checks: [{ exchange: new Date(0) }, { exchange: { toJSON: () => 'replaced' } }] }] })
    same({
      scenarios: [
        {
          checks: [
            new (class Check {
              exchange = exchange
            })(),
          ],
        },
        { checks: 'none' },
        null,
      ],
    })
    same({ scenarios: [{ checks: [{ exchange: {} }, { exchange: { empty: [] } }] }] })
    same({ scenarios: 'none' })
    same({ scenarios: [] })
    same({})
  })

  test('a report whose strings hold the placeholder token is serialized whole, the same bytes', () => {
    const exchange = { request: { body: '"tok-0" tok-1' } }
    same({ scenarios: [{ checks: [{ exchange }, { exchange }] }] }, 'tok-0')
    same({ scenarios: [{ checks: [{ exchange, expected: 'tok-0' }] }] }, 'tok-0')
    same({ scenarios: [{ checks: [{ exchange, expected: { 'tok-0': 1 } }] }] }, 'tok-0')
    same({ tok: 'tok-0', scenarios: [{ checks: [{ exchange }] }] }, 'tok-0')
  })

  test('with scenarios rendered before (scenarioBytes), the same bytes; one rendered then changed is as it was', () => {
    const value = awkward()
    const exchange = { request: value, response: { status: 200, body: 'a\nb', headers: {} } }
    const one = {
      id: 'one',
      checks: [
        { id: 'c', exchange },
        { id: 'd', exchange },
      ],
      notes: undefined,
    }
    const two = { id: 'two', title: 'é 🦊 "two"\n', checks: [{ id: 'c', exchange, expected: value }] }
    const three = { id: 'three', checks: [] }
    const report = { before: value, scenarios: [one, two, three, null], after: [1] }
    const text = `${JSON.stringify(report, null, 2)}\n`
    for (const rendered of [[one], [two], [one, three], [one, two, three]]) {
      const bytes = new Map(rendered.map((scenario) => [scenario, scenarioBytes(scenario)] as const))
      expect(reportBytes(report, undefined, bytes).toString()).toBe(text)
    }
    // The rendered bytes stand for the scenario: a change after is not in them (so a run with a
    // baseline, which marks checks, renders none before).
    const before = new Map([[one, scenarioBytes(one)]])
    one.id = 'changed'
    expect(reportBytes(report, undefined, before).toString()).toBe(text)
    expect(reportBytes(report).toString()).not.toBe(text)
  })

  test('fails on a cycle, as JSON.stringify does', () => {
    const cycle: Record<string, unknown> = {}
    cycle.self = { back: cycle }
    expect(() => reportBytes({ scenarios: [{ checks: [{ exchange: cycle }] }] })).toThrow(TypeError)
  })
})

describe('renderJsonBytes', () => {
  test("is renderJson's text byte for byte, with exchanges shared by checks", () => {
    const run = sharedRun()
    const text = renderJson(run)
    expect(renderJsonBytes(run).toString()).toBe(text)
    expect(renderJsonBytes(run).equals(Buffer.from(text))).toBe(true)
    expect(text.split('"ECONNRESET"')).toHaveLength(3)
    expect(text).not.toContain('59c6995e')
  })

  test('with each scenario rendered as it ended (renderScenariosAsTheyEnd), the same bytes', async () => {
    const run = sharedRun()
    const scenarios = renderScenariosAsTheyEnd()
    for (const scenario of run.scenarios) scenarios.add(scenario)
    // Rendered on a later turn of the event loop, not in the run's own.
    expect(scenarios.rendered.size).toBe(0)
    await new Promise((resolve) => setImmediate(resolve))
    expect(scenarios.rendered.size).toBe(run.scenarios.length)
    expect(renderJsonBytes(run, scenarios.rendered).equals(Buffer.from(renderJson(run)))).toBe(true)
  })
})
