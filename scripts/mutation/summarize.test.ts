import { readFileSync } from 'node:fs'
import { describe, expect, test } from 'vitest'
import {
  type EquivalentEntry,
  type MutationReport,
  mutantKey,
  summarize,
  toMarkdown,
  unexplained,
} from './summarize'

const mutant = (line: number, status: string, mutatorName = 'ConditionalExpression') => ({
  id: String(line),
  mutatorName,
  replacement: 'true',
  status,
  location: { start: { line, column: 3 } },
})

const report: MutationReport = {
  files: {
    'simulator/quoting/a.ts': { mutants: [mutant(1, 'Killed'), mutant(2, 'Survived'), mutant(3, 'Timeout')] },
    'simulator/http/b.ts': {
      mutants: [mutant(4, 'Survived'), mutant(5, 'NoCoverage'), mutant(6, 'CompileError')],
    },
  },
}

describe('the mutation summary', () => {
  test('scores per folder, without the survivors equivalent.json explains; a gap still counts', () => {
    const explained = [
      { key: 'simulator/http/b.ts:4:3 ConditionalExpression', kind: 'equivalent' as const, why: 'a cache' },
      { key: 'simulator/http/b.ts:5:3 ConditionalExpression', kind: 'gap' as const, why: 'no pack' },
    ]
    const rows = summarize(report, explained)
    expect(rows.map((r) => [r.folder, r.killed, r.survived, r.equivalent, r.other])).toEqual([
      ['http', 0, 1, 1, 1],
      ['quoting', 2, 1, 0, 0],
      ['all', 2, 2, 1, 1],
    ])
    expect(rows.at(-1)?.score).toBeCloseTo(2 / 5)
    expect(rows.at(-1)?.scoreNonEquivalent).toBeCloseTo(2 / 4)
    expect(unexplained(report, explained).map((m) => m.key)).toEqual([
      'simulator/quoting/a.ts:2:3 ConditionalExpression',
      'simulator/http/b.ts:5:3 ConditionalExpression',
    ])
    expect(toMarkdown(rows)).toContain('| all | 5 | 2 | 2 | 1 | 40% | 50% |')
    expect(mutantKey('f.ts', mutant(7, 'Killed', 'StringLiteral'))).toBe('f.ts:7:3 StringLiteral')
  })

  test('the checked-in list explains each mutant once, with a kind and a reason', () => {
    const entries: EquivalentEntry[] = JSON.parse(
      readFileSync(new URL('../../conformance/mutation/equivalent.json', import.meta.url), 'utf8'),
    )
    const seen = new Set<string>()
    const repeated = entries
      .map((e) => `${e.key} -> ${e.replacement ?? ''}`)
      .filter((id) => seen.has(id) || !seen.add(id))
    expect(repeated).toEqual([])
    const kinds = new Set(['equivalent', 'outside-spec', 'gap'])
    const bad = entries.filter(
      (e) => !kinds.has(e.kind) || !/^\S+:\d+:\d+ \w+$/.test(e.key) || e.why.trim().length < 10,
    )
    expect(bad).toEqual([])
  })
})
