import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, test } from 'vitest'
import { loadScenarios } from '../../conformance/scenario/loadScenarios'

/**
 * The spec a vendor has: the copy the repository ships (docs/spec/service-spec.md), or where
 * SERVICE_SPEC says. The shared original beside the repository, when present, must equal the copy.
 */
const specPath = process.env.SERVICE_SPEC ?? join(import.meta.dirname, '../../docs/spec/service-spec.md')
const sharedSpec = join(import.meta.dirname, '../../../shared/spec/service-spec.md')
const normalize = (text: string) => text.replace(/\s+/g, ' ').trim()

/** Every spec citation a check of a scenario makes: the scenario's, and any step's own. */
function citations(scenario: Awaited<ReturnType<typeof loadScenarios>>[number]): string[] {
  const cited = [scenario.spec]
  for (const step of [...scenario.steps, ...scenario.cleanup]) {
    if ('http' in step) {
      if (step.expect.spec) cited.push(step.expect.spec)
      for (const alternative of step.expect.anyOf ?? []) if (alternative.spec) cited.push(alternative.spec)
    }
    if ('webhook' in step && step.webhook.spec) cited.push(step.webhook.spec)
  }
  return cited
}

describe('every check cites the spec in its own words', () => {
  test('each citation of every MUST and SHOULD scenario quotes words that appear in the spec', async () => {
    expect(existsSync(specPath), `the spec is not at ${specPath} (set SERVICE_SPEC)`).toBe(true)
    const spec = normalize(readFileSync(specPath, 'utf8'))
    const problems: string[] = []
    for (const scenario of await loadScenarios()) {
      for (const citation of citations(scenario)) {
        const quotes = [...citation.matchAll(/"([^"]+)"/g)].map((m) => m[1]!)
        if (quotes.length === 0)
          problems.push(`${scenario.id} (${scenario.level}): no quoted words in "${citation}"`)
        for (const quote of quotes)
          if (!spec.includes(normalize(quote))) problems.push(`${scenario.id}: "${quote}" is not in the spec`)
      }
    }
    expect(problems).toEqual([])
  })

  // Skipped where the team's shared original is not beside the checkout (a clone elsewhere, CI
  // in /tmp): there is nothing to compare the shipped copy with; the test above still checks
  // every citation against the shipped copy.
  test.runIf(existsSync(sharedSpec))('the shipped copy of the spec is the shared original', () => {
    expect(readFileSync(join(import.meta.dirname, '../../docs/spec/service-spec.md'), 'utf8')).toBe(
      readFileSync(sharedSpec, 'utf8'),
    )
  })

  test('a quotation the spec does not have is caught', () => {
    const spec = normalize(readFileSync(specPath, 'utf8'))
    expect(
      spec.includes(normalize('Every request to the endpoints above carries the header `x-api-key`')),
    ).toBe(true)
    expect(spec.includes(normalize('Every request carries an x-trace-id header'))).toBe(false)
  })
})
