import { readFile, writeFile } from 'node:fs/promises'
import { z } from 'zod'
import { BaseError } from '../../spec/BaseError'
import type { ScenarioResult } from './types'

/**
 * A baseline: the checks a target is known to fail. Each entry names a check id
 * (`<scenario>/<step>/<check>`) or a whole scenario id, with an optional reason.
 */
export const Baseline = z.strictObject({
  expectedFailures: z.array(
    z.union([z.string().min(1), z.strictObject({ id: z.string().min(1), reason: z.string().optional() })]),
  ),
})
export type Baseline = z.infer<typeof Baseline>

/** Thrown when a baseline file cannot be read or is not valid. */
export class BaselineFileError extends BaseError {
  override name = 'Conformance.BaselineFileError'
}

/** Reads a baseline file (JSON). */
export async function readBaseline(path: string): Promise<Baseline> {
  try {
    return Baseline.parse(JSON.parse(await readFile(path, 'utf8')))
  } catch (cause) {
    throw new BaselineFileError(`The baseline ${path} is not valid.`, {
      cause,
      metaMessages: [
        'Expected: {"expectedFailures": ["<scenario>/<step>/<check>" | "<scenario>" | {"id", "reason"}]}',
      ],
    })
  }
}

/** Writes a baseline expecting exactly the failures of a run. */
export async function writeBaseline(path: string, scenarios: readonly ScenarioResult[]): Promise<void> {
  const ids = scenarios.flatMap((s) => s.checks.filter((c) => c.status === 'failed').map((c) => c.id))
  await writeFile(path, `${JSON.stringify({ expectedFailures: ids }, null, 2)}\n`)
}

/**
 * Marks the failures a baseline expects, and the baseline entries that now pass. An entry is
 * stale (now passes) when its scenario ran (and was applicable), nothing it names failed, and,
 * for a check id, that check ran and passed. Entries of scenarios outside this run (another
 * pack or shard) are left alone.
 *
 * @returns The stale entries.
 */
export function applyBaseline(scenarios: ScenarioResult[], baseline: Baseline): string[] {
  const entries = baseline.expectedFailures.map((e) => (typeof e === 'string' ? e : e.id))
  const stale: string[] = []
  for (const entry of entries) {
    const scenarioId = entry.split('/')[0] ?? entry
    const scenario = scenarios.find((s) => s.id === scenarioId)
    if (!scenario || scenario.status === 'not-applicable') continue
    const named = entry === scenarioId ? scenario.checks : scenario.checks.filter((c) => c.id === entry)
    const failed = named.filter((c) => c.status === 'failed')
    for (const check of failed) check.baseline = 'expected-failure'
    if (failed.length > 0) continue
    if (entry !== scenarioId && named.length === 0) continue // the check did not run this time
    for (const check of named) check.baseline = 'now-passes'
    stale.push(entry)
  }
  return stale
}
