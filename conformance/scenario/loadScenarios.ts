import { readdirSync, readFileSync } from 'node:fs'
import { basename, dirname, join, relative, resolve } from 'node:path'
import { isNode, LineCounter, parseDocument } from 'yaml'
import { BaseError } from '../../spec/BaseError'
import { Scenario } from './schema'
import { openValidatedCache, openYamlCache, type YamlCache } from './yamlCache'

/** One problem in a scenario file, located by line and field path. */
export type ScenarioProblem = { file: string; line: number; column: number; field: string; message: string }

/** Thrown when scenario files are not valid YAML or do not match the scenario format. */
export class ScenarioFileError extends BaseError {
  override name = 'Conformance.ScenarioFileError'
  readonly problems: ScenarioProblem[]

  constructor(problems: ScenarioProblem[]) {
    const lines = problems.map(
      (p) => `${p.file}:${p.line}:${p.column} ${p.field ? `${p.field}: ` : ''}${p.message}`,
    )
    // The problems are the message itself: the CLI prints only the short message by default.
    super(
      `${problems.length} problem${problems.length === 1 ? '' : 's'} in scenario files:\n${lines.map((l) => `  ${l}`).join('\n')}`,
      {
        docsPath: 'docs/conformance.md',
      },
    )
    this.problems = problems
  }
}

/** A validated scenario with where it came from. */
export type LoadedScenario = Scenario & { pack: string; file: string }

/**
 * Parses and validates one scenario file's text. Returns the scenario, or every problem found
 * (YAML syntax and schema), each with the line of the offending field. With a `cache`, a text
 * read before skips the YAML parser (yamlCache.ts); it is validated all the same.
 *
 * @example
 * const { scenario, problems } = parseScenario(text, 'scenarios/auth/missing-key.yaml')
 */
export function parseScenario(
  text: string,
  file: string,
  cache?: YamlCache,
): { scenario: Scenario; problems: [] } | { scenario: undefined; problems: ScenarioProblem[] } {
  // A text read before: its value, validated as ever; a failure is located from the YAML below.
  const cached = cache?.get(text)
  if (cached !== undefined) {
    const result = Scenario.safeParse(cached)
    if (result.success) return { scenario: result.data, problems: [] }
  }
  const lineCounter = new LineCounter()
  const doc = parseDocument(text, { lineCounter, prettyErrors: false, merge: true })
  const at = (offset: number) => lineCounter.linePos(offset)
  if (doc.errors.length > 0) {
    return {
      scenario: undefined,
      problems: doc.errors.map((e) => {
        const { line, col } = at(e.pos[0])
        return { file, line, column: col, field: '', message: e.message.split('\n')[0] ?? e.message }
      }),
    }
  }
  const value = doc.toJS()
  const result = Scenario.safeParse(value)
  if (result.success) {
    cache?.set(text, value)
    return { scenario: result.data, problems: [] }
  }
  return {
    scenario: undefined,
    problems: result.error.issues.map((issue) => {
      const path = issue.path.map((p) => (typeof p === 'symbol' ? String(p) : p))
      // A missing field has no node: point at the nearest ancestor that exists.
      let offset = 0
      for (let n = path.length; n >= 0; n--) {
        const node = n === 0 ? doc.contents : doc.getIn(path.slice(0, n), true)
        if (isNode(node) && node.range) {
          offset = node.range[0]
          break
        }
      }
      const { line, col } = at(offset)
      return { file, line, column: col, field: formatPath(path), message: issue.message }
    }),
  }
}

function formatPath(path: (string | number)[]): string {
  return path.reduce<string>(
    (out, p) => (typeof p === 'number' ? `${out}[${p}]` : out ? `${out}.${p}` : p),
    '',
  )
}

/** Parameters of {@link loadScenarios}. */
export type LoadScenariosParameters = {
  /** The `scenarios/` folder (packs as sub-folders), or one folder of scenario files; default: the repository's. */
  dir?: string | undefined
  /** Pack names (sub-folders) to load; default: all. */
  packs?: string[] | undefined
}

/** The repository's `scenarios/` folder. */
export const DEFAULT_SCENARIOS_DIR = join(import.meta.dirname, '..', '..', 'scenarios')

/**
 * Loads every `*.yaml` of the chosen packs, sorted by pack then file name, through the caches
 * (yamlCache.ts: the scenarios this build of the CLI validated before, else the YAML read
 * before). Throws {@link ScenarioFileError} listing every problem of every file, or when a pack
 * or id is unknown or duplicated. The files are read synchronously: ~100 small files, read in
 * a few ms that way against ~20 ms through the thread pool, before anything else can start.
 *
 * @example
 * const scenarios = await loadScenarios({ packs: ['versioning'] })
 */
export async function loadScenarios(parameters: LoadScenariosParameters = {}): Promise<LoadedScenario[]> {
  const given = parameters.dir ?? DEFAULT_SCENARIOS_DIR
  const entries = readdirSync(given, { withFileTypes: true })
  // A folder of scenario files itself (e.g. `intent-devnet fuzz`'s findings/) is one pack, named after it.
  const flat = entries.some((e) => e.isFile() && /\.ya?ml$/.test(e.name))
  const dir = flat ? dirname(resolve(given)) : given
  const available = flat
    ? [basename(resolve(given))]
    : entries
        .filter((e) => e.isDirectory())
        .map((e) => e.name)
        .sort()
  const packs = parameters.packs ?? available
  const problems: ScenarioProblem[] = []
  for (const pack of packs)
    if (!available.includes(pack))
      problems.push({
        file: relative(process.cwd(), join(dir, pack)),
        line: 0,
        column: 0,
        field: '',
        message: `unknown pack "${pack}"; packs: ${available.join(', ')}`,
      })
  const scenarios: LoadedScenario[] = []
  const seen = new Map<string, string>()
  const validated = openValidatedCache()
  // Opened only for a text this build has not validated (its file is larger: every build's texts).
  let yaml: YamlCache | undefined
  const yamlCache = () => {
    yaml ??= openYamlCache()
    return yaml
  }
  for (const pack of packs.filter((p) => available.includes(p))) {
    const files = readdirSync(join(dir, pack))
      .filter((f) => /\.ya?ml$/.test(f))
      .sort()
    for (const name of files) {
      const path = join(dir, pack, name)
      const file = relative(process.cwd(), path)
      const text = readFileSync(path, 'utf8')
      const known = validated?.get(text) as Scenario | undefined
      const parsed = known ? { scenario: known } : parseScenario(text, file, yamlCache())
      if (!parsed.scenario) {
        problems.push(...parsed.problems)
        continue
      }
      if (!known) validated?.set(text, parsed.scenario)
      const previous = seen.get(parsed.scenario.id)
      if (previous) {
        problems.push({ file, line: 1, column: 1, field: 'id', message: `id also used by ${previous}` })
        continue
      }
      seen.set(parsed.scenario.id, file)
      scenarios.push({ ...parsed.scenario, pack, file })
    }
  }
  yaml?.save()
  validated?.save()
  if (problems.length > 0) throw new ScenarioFileError(problems)
  return scenarios
}
