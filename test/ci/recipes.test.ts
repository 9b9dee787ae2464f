import { execFile } from 'node:child_process'
import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { expect, it } from 'vitest'
import { parse } from 'yaml'
import { REPORT_FILES } from '../../conformance/reporters'

const root = join(import.meta.dirname, '..', '..')
const dir = join(root, 'docs/ci')
const bin = join(root, 'bin/intent-devnet.js')

type Step = { run?: string; uses?: string; with?: Record<string, unknown> }
type Workflow = {
  jobs: Record<
    string,
    { 'runs-on': string; steps: Step[]; strategy?: { matrix?: Record<string, unknown[]> } }
  >
}

const workflows = readdirSync(dir)
  .filter((file) => file.endsWith('.yml'))
  .map((file) => ({ file, workflow: parse(readFileSync(join(dir, file), 'utf8')) as Workflow }))

/** Shell words of a `run:` script: line continuations joined, quotes kept as one word. */
const words = (script: string) =>
  (script.replace(/\\\n/g, ' ').match(/"[^"]*"|'[^']*'|\S+/g) ?? []).map((word) =>
    word.replace(/^["']|["']$/g, ''),
  )

/** Every `intent-devnet` invocation in a script: `npx intent-devnet SUB …` or `docker run … intent-devnet:TAG SUB …`. */
function invocations(script: string): string[][] {
  const found: string[][] = []
  for (const line of script.replace(/\\\n/g, ' ').split('\n')) {
    const tokens = words(line)
    const at = tokens.findIndex((token) => token === 'intent-devnet' || /^intent-devnet:/.test(token))
    if (at >= 0 && tokens[at - 1] !== 'install' && !tokens.includes('install'))
      found.push(tokens.slice(at + 1))
  }
  return found
}

/** The real CLI's help for a subcommand: its flags, and the choices of those that have them. */
const help = (subcommand: string) =>
  new Promise<string>((resolve, reject) =>
    execFile(process.execPath, [bin, subcommand, '--help'], (error, stdout) =>
      error ? reject(error) : resolve(stdout),
    ),
  )

it('the CI recipes are workflows GitHub can read: jobs that run on a runner, with steps', () => {
  expect(workflows.map(({ file }) => file).sort()).toEqual(['conformance.yml', 'integrator.yml'])
  for (const { workflow } of workflows)
    for (const job of Object.values(workflow.jobs)) {
      expect(job['runs-on']).toBeTypeOf('string')
      for (const step of job.steps) expect(step.run !== undefined || step.uses !== undefined).toBe(true)
    }
})

it('every intent-devnet command and flag they use exists in the CLI, with valid choices', async () => {
  const used = workflows.flatMap(({ workflow }) =>
    Object.values(workflow.jobs).flatMap((job) => job.steps.flatMap((step) => invocations(step.run ?? ''))),
  )
  expect(used.map(([subcommand]) => subcommand).sort()).toEqual(['conformance', 'image', 'up'])
  for (const [subcommand, ...args] of used) {
    const text = await help(subcommand!)
    for (const [index, arg] of args.entries()) {
      if (!arg.startsWith('--')) continue
      expect(text, `${subcommand} ${arg}`).toMatch(new RegExp(`(^|\\s)${arg}[ ,<\\n]`))
      // A flag with choices: every value that follows it is one of them.
      const choices = text.match(new RegExp(`${arg} [^\\n]*\\n?[^\\n]*\\(choices: ([^)]*)\\)`))?.[1]
      if (!choices) continue
      const next = args.findIndex((value, i) => i > index && value.startsWith('--'))
      for (const value of args.slice(index + 1, next < 0 ? undefined : next))
        expect(choices.split(', ').map((choice) => choice.replace(/"/g, ''))).toContain(value)
    }
  }
}, 60_000)

it('the sharded matrix covers shards 1..n of n, and the merge reads the files the shards write', () => {
  const { workflow } = workflows.find(({ file }) => file === 'conformance.yml')!
  const { shard, report } = workflow.jobs
  const shards = shard!.strategy!.matrix!.shard as number[]
  const run = shard!.steps.map((step) => step.run ?? '').join('\n')
  const of = Number(run.match(/--shard \$\{\{ matrix\.shard \}\}\/(\d+)/)?.[1])
  expect(shards).toEqual(Array.from({ length: of }, (_, i) => i + 1))
  expect(run).toMatch(/--reporter [^\n]*junit/)
  // Each shard uploads its --out folder; the report job downloads them all, one folder each.
  const out = run.match(/--out (reports\/[^\n]*?\}\})/)![1]
  expect(shard!.steps.find((step) => step.uses?.startsWith('actions/upload-artifact'))?.with?.path).toBe(out)
  const download = report!.steps.find((step) => step.uses?.startsWith('actions/download-artifact'))
  expect(download?.with?.path).toBe('reports')
  expect(report!.steps.map((step) => step.run ?? '').join('\n')).toContain(
    `"reports/*/${REPORT_FILES.junit}"`,
  )
})
