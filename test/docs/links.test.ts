import { existsSync, readdirSync, readFileSync, realpathSync, statSync } from 'node:fs'
import { dirname, join, relative } from 'node:path'
import { expect, it } from 'vitest'

// Every link of README.md and docs/ resolves inside the repository: the package ships them, and
// a reader of the tarball or of the repository has nothing beside it (no ../shared/).
const root = realpathSync(join(import.meta.dirname, '..', '..'))

const markdown = (dir: string): string[] =>
  readdirSync(dir).flatMap((entry) => {
    const path = join(dir, entry)
    return statSync(path).isDirectory() ? markdown(path) : entry.endsWith('.md') ? [path] : []
  })

/** GitHub's anchor of a heading: lower case, punctuation dropped, spaces to dashes. */
const slug = (heading: string) =>
  heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N} _-]/gu, '')
    .replace(/ /g, '-')

const anchorsOf = (file: string) =>
  new Set(
    readFileSync(file, 'utf8')
      .split('\n')
      .filter((line) => /^#{1,6} /.test(line))
      .map((line) => slug(line.replace(/^#+ /, ''))),
  )

it('every relative link in README.md and docs/ names a file (and heading) inside the repository', () => {
  const broken: string[] = []
  const files = [join(root, 'README.md'), ...markdown(join(root, 'docs'))]
  for (const file of files) {
    // Fenced code is not prose: its brackets are code.
    const text = readFileSync(file, 'utf8').replace(/```[\s\S]*?```/g, '')
    for (const [, target] of text.matchAll(/\]\(([^)\s]+)\)/g)) {
      // URLs (http:, mailto:) are not files of the repository.
      if (/^[a-z]+:/i.test(target!)) continue
      const [path, anchor] = target!.split('#')
      const resolved = path ? join(dirname(file), path) : file
      const where = `${relative(root, file)} → ${target}`
      if (relative(root, resolved).startsWith('..')) broken.push(`${where} (outside the repository)`)
      else if (!existsSync(resolved)) broken.push(`${where} (no such file)`)
      else if (anchor && resolved.endsWith('.md') && !anchorsOf(resolved).has(anchor))
        broken.push(`${where} (no such heading)`)
    }
    for (const [, path] of text.matchAll(/`(\.\.\/shared\/[^`]+)`/g))
      broken.push(`${relative(root, file)} → ${path}`)
  }
  expect(files.length).toBeGreaterThan(5)
  expect(broken).toEqual([])
})
