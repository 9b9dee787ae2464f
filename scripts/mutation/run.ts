// `npm run mutation [-- --sample N --seed S --folders quoting,http --concurrency 2]`: StrykerJS over the
// simulator's domain and HTTP code (stryker.config.mjs), each mutant judged by every pack
// (scripts/mutation/runPacks.mjs). Whole, or on a seeded random sample of N source lines (every
// mutant on those lines). Then the score per folder, from Stryker's JSON report, and the
// survivors that conformance/mutation/equivalent.json does not explain.
import { spawnSync } from 'node:child_process'
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join, relative } from 'node:path'
import { parseArgs } from 'node:util'
import { MUTATED_FOLDERS } from '../../stryker.config.mjs'
import { type MutationReport, summarize, toMarkdown, unexplained } from './summarize'

const root = join(import.meta.dirname, '../..')
const { values } = parseArgs({
  options: {
    sample: { type: 'string' },
    seed: { type: 'string', default: '29' },
    folders: { type: 'string' },
    /** Explicit `file:line-line` ranges (comma-separated), e.g. to re-check survivors. */
    lines: { type: 'string' },
    'report-only': { type: 'boolean', default: false },
    /** Mutants run at once (stryker.config.mjs: 1); each starts its own Anvils and simulator. */
    concurrency: { type: 'string' },
  },
})
const folders = values.folders ? values.folders.split(',') : MUTATED_FOLDERS

/** The mutated source files of `folders` (as stryker.config.mjs's `mutate` globs pick them). */
function sourceFiles(): string[] {
  const walk = (dir: string): string[] =>
    readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
      const path = join(dir, entry.name)
      if (entry.isDirectory()) return entry.name === 'testing' ? [] : walk(path)
      return /\.ts$/.test(entry.name) && !/\.(test|d)\.ts$/.test(entry.name) ? [path] : []
    })
  return folders.flatMap((folder) => walk(join(root, 'simulator', folder)).map((p) => relative(root, p)))
}

/** Lines that can hold a mutant: code, not comments, imports or type declarations. */
function codeLines(file: string): number[] {
  const lines = readFileSync(join(root, file), 'utf8').split('\n')
  let inComment = false
  return lines.flatMap((line, i) => {
    const text = line.trim()
    if (inComment) {
      if (text.includes('*/')) inComment = false
      return []
    }
    if (text.startsWith('/*')) {
      inComment = !text.includes('*/')
      return []
    }
    if (text === '' || text.startsWith('//') || /^[})\]]*[,;]?$/.test(text)) return []
    if (/^(import|export type|type |export \{|export \*)/.test(text)) return []
    return [i + 1]
  })
}

/** A small seeded PRNG (mulberry32), so a sample is the same for the same seed. */
function random(seed: number) {
  let a = seed >>> 0
  return () => {
    a = (a + 0x6d2b79f5) >>> 0
    let t = a
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

/** `file:line-line` ranges of `n` distinct code lines drawn uniformly from every file. */
function sampleLines(n: number, seed: number): string[] {
  const all = sourceFiles().flatMap((file) => codeLines(file).map((line) => `${file}:${line}-${line}`))
  const next = random(seed)
  for (let i = all.length - 1; i > 0; i--) {
    const j = Math.floor(next() * (i + 1))
    ;[all[i], all[j]] = [all[j] as string, all[i] as string]
  }
  return all.slice(0, n).sort()
}

const reportPath = join(root, 'reports/mutation/mutation.json')
if (!values['report-only']) {
  const mutate = values.lines
    ? values.lines.split(',')
    : values.sample
      ? sampleLines(Number(values.sample), Number(values.seed))
      : [
          ...folders.map((folder) => `simulator/${folder}/**/*.ts`),
          '!simulator/**/*.test.ts',
          '!simulator/**/testing/**',
          '!simulator/**/*.d.ts',
        ]
  console.log(
    values.lines
      ? `Lines: ${mutate.join(', ')}.`
      : values.sample
        ? `Sample: ${mutate.length} lines (seed ${values.seed}) of ${folders.join(', ')}.`
        : `Whole run over ${folders.join(', ')}.`,
  )
  const started = Date.now()
  const concurrency = values.concurrency ? ['--concurrency', values.concurrency] : []
  const run = spawnSync(
    'npx',
    ['stryker', 'run', 'stryker.config.mjs', '--mutate', mutate.join(','), ...concurrency],
    {
      cwd: root,
      stdio: 'inherit',
    },
  )
  console.log(`Stryker finished in ${((Date.now() - started) / 60_000).toFixed(1)} min (exit ${run.status}).`)
}

if (!existsSync(reportPath)) throw new Error(`No report at ${reportPath}.`)
const report = JSON.parse(readFileSync(reportPath, 'utf8')) as MutationReport
const equivalentPath = join(root, 'conformance/mutation/equivalent.json')
const equivalent = existsSync(equivalentPath) ? JSON.parse(readFileSync(equivalentPath, 'utf8')) : []
const rows = summarize(report, equivalent)
const markdown = toMarkdown(rows)
writeFileSync(join(root, 'reports/mutation/summary.md'), markdown)
console.log(markdown)
const open = unexplained(report, equivalent)
if (open.length) {
  console.log(
    `\n${open.length} surviving mutant(s) not explained in conformance/mutation/equivalent.json (entries of kind gap included):`,
  )
  for (const m of open) console.log(`  ${m.key}  ${m.replacement}`)
}
