import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { describe, expect, test } from 'vitest'
import { loadScenarios } from '../../conformance/scenario/loadScenarios'
import { coverageTable, specCoverage } from '../../conformance/scenario/specCoverage'

const root = join(import.meta.dirname, '../..')

describe('coverage of the spec', () => {
  test('every rule of the spec has a scenario that enforces it', async () => {
    const gaps = specCoverage(await loadScenarios()).filter((row) => row.scenarios.length === 0)
    expect(gaps.map((row) => row.rule)).toEqual([])
  })

  test('docs/conformance.md carries the table generated from the scenarios', async () => {
    const doc = await readFile(join(root, 'docs/conformance.md'), 'utf8')
    expect(doc).toContain(coverageTable(await loadScenarios()))
  })
})
