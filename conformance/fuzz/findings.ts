import type { HttpExcerpt } from '../runner/types'
import type { Requirement, Step, Version } from '../scenario/schema'
import type { PropertyName } from './properties'

/** A property a target broke, reduced to a minimal sequence of scenario steps. */
export type Finding = {
  /** `<property> <route>`: findings are deduplicated by it. */
  key: string
  property: PropertyName
  /** The route of the step that broke it (its id in the route table). */
  route: string
  phase: 'stateless' | 'stateful'
  /** What the minimal sequence does, in a line. */
  title: string
  /** What the target answered instead. */
  message: string
  /** The run's seed, and the seed of the fast-check run that found it. */
  seed: number
  runSeed: number
  /** The minimal sequence, as steps of the packs' scenario format. */
  steps: Step[]
  requires: { capabilities: Requirement[]; version?: Version | undefined }
  /** How many requests (stateless) or commands (stateful) the first failing input had, before shrinking. */
  sizeBeforeShrinking: number
  /** Requests its shrinking sent (taken from the run's budget). */
  shrinkingRequests: number
  exchange?: HttpExcerpt | undefined
}

/** What one route answered, and which properties were checked on it. */
export type RouteCoverage = {
  statuses: Record<string, number>
  properties: Partial<Record<PropertyName, { checked: number; failed: number }>>
}

/** Coverage of a run: routes × statuses × properties. */
export type Coverage = Record<string, RouteCoverage>

/**
 * Counts one judged request (or a chain or webhook step: `status` null, no status counted) in
 * the coverage.
 *
 * @example
 * recordCoverage(coverage, 'quote', 400, 'invalid-input', true)
 */
export function recordCoverage(
  coverage: Coverage,
  route: string,
  status: number | undefined | null,
  property: PropertyName,
  failed: boolean,
): void {
  const entry = coverage[route] ?? { statuses: {}, properties: {} }
  coverage[route] = entry
  if (status !== null) {
    const label = status === undefined ? 'no answer' : String(status)
    entry.statuses[label] = (entry.statuses[label] ?? 0) + 1
  }
  const counts = entry.properties[property] ?? { checked: 0, failed: 0 }
  entry.properties[property] = counts
  counts.checked++
  if (failed) counts.failed++
}

/** The dedup key of a finding. */
export const findingKey = (property: PropertyName, route: string) => `${property} ${route}`
