/** The parts of Stryker's JSON report (mutation-testing-report-schema) the summary reads. */
export type MutationReport = {
  files: Record<
    string,
    {
      mutants: {
        id: string
        mutatorName: string
        replacement?: string
        status: string
        location: { start: { line: number; column: number } }
      }[]
    }
  >
}

/**
 * A surviving mutant listed in conformance/mutation/equivalent.json: `equivalent` (no observable
 * difference) or `outside-spec` (behaviour the spec leaves open) explain it; `gap` records a
 * survivor no pack catches yet (it still counts as survived).
 */
export type EquivalentEntry = {
  key: string
  replacement?: string
  kind: 'equivalent' | 'outside-spec' | 'gap'
  why: string
}

/** The keys of the entries that explain a survivor (not the known gaps). */
const explainedKeys = (entries: readonly EquivalentEntry[]) =>
  new Set(entries.filter((e) => e.kind !== 'gap').map((e) => e.key))

/** One folder's tally. */
export type FolderRow = {
  folder: string
  killed: number
  survived: number
  equivalent: number
  other: number
  score: number
  scoreNonEquivalent: number
}

/** `simulator/quoting/quote.ts:70:3 ConditionalExpression`: how a mutant is named in the equivalence list. */
export const mutantKey = (file: string, m: MutationReport['files'][string]['mutants'][number]) =>
  `${file}:${m.location.start.line}:${m.location.start.column} ${m.mutatorName}`

const KILLED = new Set(['Killed', 'Timeout'])

/**
 * The score per folder of `simulator/` (killed or timed out over killed + survived + no
 * coverage), and the same without the survivors the equivalence list explains.
 *
 * @example
 * const rows = summarize(report, [])
 */
export function summarize(report: MutationReport, equivalent: readonly EquivalentEntry[]): FolderRow[] {
  const explained = explainedKeys(equivalent)
  const rows = new Map<string, FolderRow>()
  for (const [file, { mutants }] of Object.entries(report.files)) {
    const folder = file.split('/')[1] ?? file
    const row = rows.get(folder) ?? {
      folder,
      killed: 0,
      survived: 0,
      equivalent: 0,
      other: 0,
      score: 0,
      scoreNonEquivalent: 0,
    }
    for (const m of mutants) {
      if (KILLED.has(m.status)) row.killed++
      else if (m.status === 'Survived' || m.status === 'NoCoverage')
        explained.has(mutantKey(file, m)) ? row.equivalent++ : row.survived++
      else row.other++
    }
    rows.set(folder, row)
  }
  const all = [...rows.values()].sort((a, b) => a.folder.localeCompare(b.folder))
  const total: FolderRow = {
    folder: 'all',
    killed: 0,
    survived: 0,
    equivalent: 0,
    other: 0,
    score: 0,
    scoreNonEquivalent: 0,
  }
  for (const r of all) {
    total.killed += r.killed
    total.survived += r.survived
    total.equivalent += r.equivalent
    total.other += r.other
  }
  for (const r of [...all, total]) {
    r.score = r.killed / Math.max(1, r.killed + r.survived + r.equivalent)
    r.scoreNonEquivalent = r.killed / Math.max(1, r.killed + r.survived)
  }
  return [...all, total]
}

/** The survivors the equivalence list does not explain. */
export function unexplained(
  report: MutationReport,
  equivalent: readonly EquivalentEntry[],
): { key: string; replacement: string }[] {
  const explained = explainedKeys(equivalent)
  return Object.entries(report.files).flatMap(([file, { mutants }]) =>
    mutants
      .filter(
        (m) => (m.status === 'Survived' || m.status === 'NoCoverage') && !explained.has(mutantKey(file, m)),
      )
      .map((m) => ({
        key: mutantKey(file, m),
        replacement: (m.replacement ?? '').replace(/\s+/g, ' ').slice(0, 80),
      })),
  )
}

/** The per-folder table as docs/conformance.md shows it. */
export function toMarkdown(rows: readonly FolderRow[]): string {
  const pct = (x: number) => `${Math.round(x * 100)}%`
  const nonEquivalent = (r: FolderRow) => (r.killed + r.survived > 0 ? pct(r.scoreNonEquivalent) : '–')
  return [
    '| folder | mutants | killed | survived (unexplained) | equivalent / outside the spec | score | score without equivalents |',
    '|---|---|---|---|---|---|---|',
    ...rows.map(
      (r) =>
        `| ${r.folder} | ${r.killed + r.survived + r.equivalent} | ${r.killed} | ${r.survived} | ${r.equivalent} | ${pct(r.score)} | ${nonEquivalent(r)} |`,
    ),
  ].join('\n')
}
