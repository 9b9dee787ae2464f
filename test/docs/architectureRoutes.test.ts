import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { expect, test } from 'vitest'
import { SERVER_ROUTES } from '../../simulator/http/serverRoutes'
import { methodsOf, type RouteDefinition } from '../../spec'

// Issue 27: "docs/architecture.md shows each route's path, redrawn from the code". The hop table
// must name every route of the table (method, path, id), no route id the table lacks, and only
// files that exist, so a new route, a renamed action or a moved file shows here as a failure.

const root = join(import.meta.dirname, '..', '..')
const HEADING = '## From a route to the chain in three hops'

/** The hop table's section of the page. */
function hopSection(page: string): string {
  const start = page.indexOf(HEADING)
  if (start < 0) return ''
  const end = page.indexOf('\n## ', start + HEADING.length)
  return page.slice(start, end < 0 ? undefined : end)
}

/** What the section gets wrong about the routes and files: empty when it matches the code. */
function problems(
  section: string,
  routes: Record<string, RouteDefinition>,
  files: readonly string[],
): string[] {
  const found: string[] = []
  for (const [id, route] of Object.entries(routes)) {
    const entry = `\`${methodsOf(route)[0]} ${route.path}\` (\`${id}\`)`
    if (!section.includes(entry)) found.push(`route missing: ${entry}`)
  }
  for (const [, id] of section.matchAll(/` \(`([A-Za-z]+)`\)/g))
    if (id && !Object.hasOwn(routes, id)) found.push(`no route ${id} in the table`)
  for (const [, file] of section.matchAll(/`([\w./]+\.ts)`/g))
    if (file && !files.some((path) => path === file || path.endsWith(`/${file}`)))
      found.push(`no file ${file}`)
  return found
}

const page = readFileSync(join(root, 'docs', 'architecture.md'), 'utf8')
const files = ['simulator', 'test'].flatMap((dir) =>
  readdirSync(join(root, dir), { recursive: true, encoding: 'utf8' }).map((file) => join(dir, file)),
)

test('docs/architecture.md names every route of the table with its handler, action and chain call, and only files that exist', () => {
  expect(hopSection(page)).not.toBe('')
  expect(problems(hopSection(page), SERVER_ROUTES, files)).toEqual([])
})

test('a route missing from the page, a route id the table lacks, or a file that is gone fails the check', () => {
  const section = hopSection(page)
  const edited = section
    .replace('`POST /intent-operations` (`submitOperation`)', '`POST /intent-operations` (`submitOp`)')
    .replace('`versions/submission.ts`', '`versions/gone.ts`')
  expect(edited).not.toBe(section)
  expect(problems(edited, SERVER_ROUTES, files)).toEqual([
    'route missing: `POST /intent-operations` (`submitOperation`)',
    'no route submitOp in the table',
    'no file versions/gone.ts',
  ])
})
