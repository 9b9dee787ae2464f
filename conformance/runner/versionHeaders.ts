import type { LoadedScenario } from '../scenario/loadScenarios'
import type { HttpStep, Version } from '../scenario/schema'

/** The header value of each version (spec: Versioning §3). */
export const VERSION_HEADERS = { alps: '2026-01.alps', blanc: '2026-04.blanc' } as const satisfies Record<
  Version,
  string
>

/** The header an HTTP step sends: a version, none (`omit`), or a raw string as given. */
export type StepVersion = NonNullable<HttpStep['http']['version']>

/**
 * The version an HTTP step speaks: its own `version`; else its scenario's; else the version its
 * expectation names (an `envelope`, or a schema of one version: `Alps…`/`Blanc…`), since such a
 * step only holds for that version; else the run's `--version`, blanc by default.
 *
 * @example
 * stepVersion({ http: { method: 'POST', path: '/intents/route' }, expect: { status: 400, envelope: 'blanc' } }, scenario, 'alps') // 'blanc'
 */
export function stepVersion(
  step: Pick<HttpStep, 'http' | 'expect'>,
  scenario: Pick<LoadedScenario, 'requires'>,
  runVersion: Version | undefined,
): StepVersion {
  return (
    step.http.version ?? scenario.requires.version ?? expectedVersion(step.expect) ?? runVersion ?? 'blanc'
  )
}

/**
 * The one version an expectation names (itself, or its alternatives alike), if any. An
 * alternative that names no version (a refusal in any shape) does not veto the others: `anyOf:
 * [{ status: 200, schema: BlancRouteResponse }, { status: 4xx, reason: … }]` is a blanc step.
 */
function expectedVersion(expect: HttpStep['expect'] | undefined): Version | undefined {
  if (!expect) return undefined
  const own = new Set([...namedVersions(expect), ...(expect.should ? namedVersions(expect.should) : [])])
  const alternatives = [...(expect.anyOf ?? []), ...(expect.should?.anyOf ?? [])]
    .map(namedVersions)
    .filter((versions) => versions.size > 0)
  const named = new Set(own)
  if (alternatives.length > 0 && alternatives.every((versions) => versions.size === 1))
    for (const versions of alternatives) for (const version of versions) named.add(version)
  return named.size === 1 ? [...named][0] : undefined
}

/** The versions one expectation names: its `envelope`, and its schema when it is one version's. */
function namedVersions(part: { envelope?: Version | undefined; schema?: string | undefined }): Set<Version> {
  const named = new Set<Version>()
  if (part.envelope) named.add(part.envelope)
  const schema = part.schema?.match(/^(Alps|Blanc)[A-Z]/)?.[1]
  if (schema) named.add(schema.toLowerCase() as Version)
  return named
}
