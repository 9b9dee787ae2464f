import { mkdir, mkdtemp, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, test } from 'vitest'
import { loadScenarios, parseScenario, ScenarioFileError } from './loadScenarios'

describe('parseScenario', () => {
  test('names file, line and field of each schema problem', () => {
    const text = [
      'id: demo.bad',
      'title: A scenario with mistakes',
      'spec: Versioning §1',
      'steps:',
      '  - http:',
      '      method: FETCH',
      '      path: /intents/route',
      '    expect:',
      '      status: 4x0',
      '  - clock: { advance: 5, fallback: sleep }',
      '  - teleport: {}',
    ].join('\n')
    const { problems } = parseScenario(text, 'scenarios/demo/bad.yaml')
    expect(problems.map((p) => `${p.file}:${p.line} ${p.field}: ${p.message}`)).toMatchInlineSnapshot(`
      [
        "scenarios/demo/bad.yaml:6 steps[0].http.method: Invalid option: expected one of "GET"|"POST"|"PUT"|"PATCH"|"DELETE"",
        "scenarios/demo/bad.yaml:9 steps[0].expect.status: a status is a code (400), a class ("4xx"), a list of them, or { not: … }",
        "scenarios/demo/bad.yaml:10 steps[1].clock.fallback: Invalid option: expected one of "wait"|"not-applicable"",
        "scenarios/demo/bad.yaml:11 steps[2]: a step is a mapping with one of: http, chain, clock, fault, wait, webhook, sign, signIntentOp, patch",
      ]
    `)
  })

  test('a missing field points at its parent mapping', () => {
    const { problems } = parseScenario('id: demo.x\nspec: s\nsteps:\n  - wait: 1\n', 'x.yaml')
    expect(problems).toEqual([
      { file: 'x.yaml', line: 1, column: 1, field: 'title', message: expect.any(String) },
    ])
  })

  test('YAML syntax errors carry their line', () => {
    const { problems } = parseScenario('id: a\ntitle: [unclosed\nspec: s\n', 'y.yaml')
    expect(problems[0]).toMatchObject({ file: 'y.yaml', field: '' })
    expect(problems[0]!.line).toBeGreaterThan(1)
  })

  test('an unknown field is refused by name', () => {
    const { problems } = parseScenario(
      'id: a\ntitle: t\nspec: s\nsteps:\n  - wait: 1\n    retries: 3\n',
      'z.yaml',
    )
    expect(problems).toMatchObject([
      { line: 5, field: 'steps[0]', message: expect.stringContaining('retries') },
    ])
  })

  test('a valid scenario gets its defaults', () => {
    const { scenario } = parseScenario(
      'id: a.b\ntitle: t\nspec: s\nsteps:\n  - http: { method: GET, path: /health }\n',
      'ok.yaml',
    )
    expect(scenario?.requires).toEqual({ capabilities: [] })
    expect(scenario?.steps[0]).toEqual({
      http: { method: 'GET', path: '/health', apiKey: 'default' },
      expect: {},
    })
  })
})

describe('loadScenarios', () => {
  test('loads every bundled pack, each scenario citing a spec section', async () => {
    const scenarios = await loadScenarios()
    const packs = new Set(scenarios.map((s) => s.pack))
    for (const pack of ['versioning', 'authentication', 'limits', 'bad-input', 'errors'])
      expect(packs).toContain(pack)
    for (const scenario of scenarios) expect(scenario.spec).not.toBe('')
  })

  test('collects the problems of every file, unknown packs and duplicate ids', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'scenarios-'))
    await mkdir(join(dir, 'p'))
    await writeFile(join(dir, 'p', 'a.yaml'), 'id: same\ntitle: t\nspec: s\nsteps:\n  - wait: 1\n')
    await writeFile(join(dir, 'p', 'b.yaml'), 'id: same\ntitle: t\nspec: s\nsteps:\n  - wait: 1\n')
    await writeFile(join(dir, 'p', 'c.yaml'), 'id: c\ntitle: t\nspec: s\nsteps: []\n')
    const error = await loadScenarios({ dir, packs: ['p', 'nope'] }).catch((e) => e)
    expect(error).toBeInstanceOf(ScenarioFileError)
    const messages = (error as ScenarioFileError).problems.map((p) => `${p.field}: ${p.message}`)
    expect(messages).toEqual([
      ': unknown pack "nope"; packs: p',
      expect.stringMatching(/^id: id also used by .*a\.yaml$/),
      expect.stringMatching(/^steps: /),
    ])
  })
})
