import { execFileSync } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { expect, test } from 'vitest'

// Issue 27: "No hand-written source file over 400 lines". A file past it is a module doing more
// than one thing; split it by concern (the way contracts/src/compact/ and the explorer's script were).

const root = join(import.meta.dirname, '..', '..')
const LIMIT = 400
/** Source, scripts, tests, contracts, styles and pages; data (YAML, JSON) and prose are not code. */
const SOURCE = /\.(ts|mts|cts|js|mjs|cjs|sol|css|html|sh)$/
/** Written by a tool, never by hand: the compiled contracts' ABIs and bytecode. */
const GENERATED = ['contracts/generated/']

/** The tracked hand-written source files over `limit` lines, with their line counts. */
function longFiles(files: string[], read: (file: string) => string, limit: number) {
  return files
    .filter((file) => SOURCE.test(file) && !GENERATED.some((prefix) => file.startsWith(prefix)))
    .map((file) => ({ file, lines: read(file).split('\n').length - (read(file).endsWith('\n') ? 1 : 0) }))
    .filter(({ lines }) => lines > limit)
}

test('no hand-written source file is over 400 lines', () => {
  const tracked = execFileSync('git', ['ls-files', '-z'], { cwd: root, encoding: 'utf8' })
    .split('\0')
    .filter(Boolean)
  expect(tracked.length).toBeGreaterThan(100)
  expect(longFiles(tracked, (file) => readFileSync(join(root, file), 'utf8'), LIMIT)).toEqual([])
})

test('the check finds a long file, counts lines as wc -l does, and skips generated code and data', () => {
  const texts: Record<string, string> = {
    'simulator/long.ts': 'x\n'.repeat(401),
    'simulator/exact.ts': 'x\n'.repeat(400),
    'contracts/src/Long.sol': 'x\n'.repeat(500),
    'simulator/unterminated.ts': `${'x\n'.repeat(400)}x`,
    'contracts/generated/artifacts.ts': 'x\n'.repeat(900),
    'scenarios/quotes/long.yaml': 'x\n'.repeat(900),
  }
  expect(longFiles(Object.keys(texts), (file) => texts[file]!, LIMIT)).toEqual([
    { file: 'simulator/long.ts', lines: 401 },
    { file: 'contracts/src/Long.sol', lines: 500 },
    { file: 'simulator/unterminated.ts', lines: 401 },
  ])
})
