import { createHash } from 'node:crypto'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import type { LoadedScenario } from '../scenario/loadScenarios'
import type { Version } from '../scenario/schema'
import type { RunMetadata, ScenarioResult } from './types'
import { stepVersion } from './versionHeaders'

const runnerVersion = (() => {
  try {
    return (
      JSON.parse(readFileSync(join(import.meta.dirname, '../../package.json'), 'utf8')) as { version: string }
    ).version
  } catch {
    return 'unknown'
  }
})()

/** Scenario ids as the packs write them: the order of `localeCompare` is then that of code units. */
const PLAIN_ID = /^[a-z0-9.-]+$/

/**
 * `a.localeCompare(b)`, the order the pack digest was always taken in, without ICU for the ids of
 * the packs: the first `localeCompare` of a process sets up a collator (~20 ms at the end of a
 * run, measured in the bundle). For [a-z0-9.-] both orders are the same ('-' < '.' < digits <
 * letters; 100 000 random pairs compared equal); any other id goes through `localeCompare`.
 */
function byId(a: string, b: string): number {
  if (PLAIN_ID.test(a) && PLAIN_ID.test(b)) return a < b ? -1 : a > b ? 1 : 0
  return a.localeCompare(b)
}

/** The metadata of a run, for its reports. */
export function runMetadata(parameters: {
  scenarios: readonly LoadedScenario[]
  results: readonly ScenarioResult[]
  target: string
  date: string
  version?: Version | undefined
  /** The profile's name (`spec`, `public`, or a profile file's). */
  profile?: string | undefined
  /** The profile's mappings the run applied (and what it learned of the target's paths). */
  mappings?: readonly string[] | undefined
  /** {@link packDigest} of `scenarios`, if taken already (the run takes it while its target starts). */
  packDigest?: string | undefined
}): RunMetadata {
  const sorted = [...parameters.scenarios].sort((a, b) => byId(a.id, b.id))
  const ran = new Set(parameters.results.filter((r) => r.status !== 'not-applicable').map((r) => r.id))
  const versions = new Set<Version>()
  for (const scenario of sorted) {
    if (!ran.has(scenario.id)) continue
    for (const step of scenario.steps) {
      if (!('http' in step)) continue
      const version = stepVersion(step, scenario, parameters.version)
      if (parameters.version && version !== parameters.version) continue // not run (--version)
      if (version === 'alps' || version === 'blanc') versions.add(version)
    }
  }
  return {
    runnerVersion,
    packDigest: parameters.packDigest ?? packDigest(parameters.scenarios),
    target: parameters.target,
    profile: parameters.profile ?? 'spec',
    versions: [...versions].sort(),
    date: parameters.date,
    ...(parameters.mappings?.length ? { mappings: [...parameters.mappings] } : {}),
  }
}

/**
 * The digest of the scenarios a run ran (their content, without file paths, in id order), e.g.
 * `sha256:…`: ~10 ms for all packs, so the run takes it while its target starts, not at its end.
 */
export function packDigest(scenarios: readonly LoadedScenario[]): string {
  const sorted = [...scenarios].sort((a, b) => byId(a.id, b.id))
  const digest = createHash('sha256')
    .update(JSON.stringify(sorted.map(({ file: _f, ...content }) => content)))
    .digest('hex')
  return `sha256:${digest}`
}
