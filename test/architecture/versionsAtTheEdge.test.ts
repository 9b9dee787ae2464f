import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join, relative, resolve, sep } from 'node:path'
import ts from 'typescript'
import { afterAll, expect, test } from 'vitest'
import { SERVER_ROUTES } from '../../simulator/http/serverRoutes'
import { ERROR_ENVELOPES, type RouteDefinition, specSchemaNameOf } from '../../spec'

// Issue 27, "Versions are shaped at the edge": the domain returns version-neutral results and
// simulator/http/ formats the alps and blanc answers. dependency-cruiser sees modules, and every
// schema comes through spec/index.ts, so this check reads the names a domain file imports.

const root = join(import.meta.dirname, '..', '..')

const isZod = (schema: unknown): schema is Parameters<typeof specSchemaNameOf>[0] =>
  typeof (schema as { safeParse?: unknown }).safeParse === 'function'

/**
 * The contract's names of one version's shapes, from the route table: the answers a route gives
 * per version, the error envelopes, and the requests of routes one version serves that no route
 * of every version shares (RouteRequest, the portfolio's, the withdrawals' stay neutral).
 */
function versionedSchemaNames(routes: Record<string, RouteDefinition>): Set<string> {
  const versioned = new Set<unknown>(Object.values(ERROR_ENVELOPES))
  const shared = new Set<unknown>()
  for (const route of Object.values(routes)) {
    const requests = Object.values(route.request ?? {})
    const perVersion = Object.values(route.responses).filter((schema) => !isZod(schema))
    for (const schemas of perVersion) for (const schema of Object.values(schemas)) versioned.add(schema)
    for (const schema of Object.values(route.responses)) if (isZod(schema)) shared.add(schema)
    if (route.versions.length > 1) for (const schema of requests) shared.add(schema)
    else if (perVersion.length > 0) for (const schema of requests) versioned.add(schema)
  }
  const names = new Set<string>()
  for (const schema of versioned) {
    const name = isZod(schema) && !shared.has(schema) ? specSchemaNameOf(schema) : undefined
    if (name) names.add(name)
  }
  return names
}

const VERSIONED = versionedSchemaNames(SERVER_ROUTES)
/** Whatever else the contract names after a version (BlancSignatures, BlancRoute...). */
const namedAfterAVersion = (name: string) => /^(Alps|Blanc)[A-Z]/.test(name)

/**
 * The domain: simulator/ less http/ (the edge), the HTTP fault plugin (faultInjection/http/: hooks
 * of the edge that change its shaped answers), the composition root, the entry, tests and test helpers.
 */
function domainFiles(tree: string): string[] {
  return readdirSync(join(tree, 'simulator'), { recursive: true, encoding: 'utf8' })
    .map((file) => join('simulator', file))
    .filter(
      (file) =>
        file.endsWith('.ts') &&
        !file.endsWith('.test.ts') &&
        !file.includes(`${sep}testing${sep}`) &&
        !file.startsWith(join('simulator', 'http') + sep) &&
        !file.startsWith(join('simulator', 'faultInjection', 'http') + sep) &&
        file !== join('simulator', 'startSimulator.ts') &&
        file !== join('simulator', 'index.ts'),
    )
}

type Finding = { file: string; name: string }

/** The versioned names each domain file of `tree` imports (or re-exports) from spec/. */
function versionedImports(tree: string): Finding[] {
  const found: Finding[] = []
  for (const file of domainFiles(tree)) {
    const text = readFileSync(join(tree, file), 'utf8')
    const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true)
    const fromSpec = (specifier: ts.Node | undefined) =>
      specifier !== undefined &&
      ts.isStringLiteral(specifier) &&
      specifier.text.startsWith('.') &&
      !relative(join(tree, 'spec'), resolve(tree, dirname(file), specifier.text)).startsWith('..')
    const check = (name: string) => {
      if (VERSIONED.has(name) || namedAfterAVersion(name)) found.push({ file, name })
    }
    const visit = (node: ts.Node) => {
      if (ts.isImportDeclaration(node) && fromSpec(node.moduleSpecifier)) {
        const bindings = node.importClause?.namedBindings
        if (bindings && ts.isNamespaceImport(bindings)) found.push({ file, name: '* (the whole contract)' })
        if (bindings && ts.isNamedImports(bindings))
          for (const element of bindings.elements) check((element.propertyName ?? element.name).text)
      } else if (ts.isExportDeclaration(node) && fromSpec(node.moduleSpecifier)) {
        const clause = node.exportClause
        if (!clause) found.push({ file, name: '* (the whole contract)' })
        else if (ts.isNamedExports(clause))
          for (const element of clause.elements) check((element.propertyName ?? element.name).text)
      } else if (ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument)) {
        if (fromSpec(node.argument.literal) && node.qualifier && ts.isIdentifier(node.qualifier))
          check(node.qualifier.text)
      }
      ts.forEachChild(node, visit)
    }
    visit(source)
  }
  return found
}

test('the route table names each version’s shapes (what the check below looks for)', () => {
  expect([...VERSIONED].sort()).toEqual(
    expect.arrayContaining([
      'AlpsErrorEnvelope',
      'AlpsRouteResponse',
      'BlancErrorEnvelope',
      'BlancIntentStatus',
      'BlancRouteResponse',
      'BlancSubmitRequest',
      'BlancSubmitResponse',
      'IntentStatus',
      'SubmissionResult',
      'SubmitIntentOperationRequest',
    ]),
  )
  // Shared by both versions: neutral.
  for (const neutral of ['RouteRequest', 'Portfolio', 'WithdrawalRequest', 'IntentOp', 'SignedIntentOp'])
    expect(VERSIONED.has(neutral), neutral).toBe(false)
})

test('no domain module imports an alps or blanc shape of the contract: http/ shapes the answers', () => {
  expect(versionedImports(root)).toEqual([])
})

// The probes live in a tree of their own (as importDirection.test.ts's do), never in simulator/.
const probeTree = mkdtempSync(join(tmpdir(), 'version-probes-'))
afterAll(() => rmSync(probeTree, { recursive: true, force: true }))

test('a domain module that imports a versioned schema fails the check; http/ may', () => {
  const probes: Record<string, string> = {
    'simulator/intents/probe.ts': "import type { BlancSubmitResponse, IntentOp } from '../../spec'\n",
    'simulator/quoting/probe.ts': "import { SubmissionResult as Result } from '../../spec/submission'\n",
    'simulator/deposits/probe.ts': "export type { AlpsRouteResponse } from '../../spec'\n",
    'simulator/settlement/probe.ts': "type S = import('../../spec').BlancIntentStatus\n",
    'simulator/withdrawals/probe.ts': "import * as contract from '../../spec'\n",
    'simulator/http/versions/probe.ts': "import type { BlancSubmitResponse } from '../../../spec'\n",
    'simulator/intents/testing/probe.ts': "import type { IntentStatus } from '../../../spec'\n",
    'simulator/intents/neutral.ts': "import type { IntentStatus } from './lifecycle'\n",
  }
  for (const [file, text] of Object.entries(probes)) {
    mkdirSync(join(probeTree, dirname(file)), { recursive: true })
    writeFileSync(join(probeTree, file), text)
  }
  expect(versionedImports(probeTree).sort((a, b) => a.file.localeCompare(b.file))).toEqual([
    { file: 'simulator/deposits/probe.ts', name: 'AlpsRouteResponse' },
    { file: 'simulator/intents/probe.ts', name: 'BlancSubmitResponse' },
    { file: 'simulator/quoting/probe.ts', name: 'SubmissionResult' },
    { file: 'simulator/settlement/probe.ts', name: 'BlancIntentStatus' },
    { file: 'simulator/withdrawals/probe.ts', name: '* (the whole contract)' },
  ])
})

/**
 * Where a domain file names a version in its own words: a string literal 'alps' or 'blanc'. The
 * explorer (a devnet page with its own routes) is an edge too: it shows which version a
 * submission came through, derived from the record.
 */
function versionLiterals(tree: string): Finding[] {
  const found: Finding[] = []
  for (const file of domainFiles(tree)) {
    if (file.startsWith(join('simulator', 'explorer') + sep)) continue
    const source = ts.createSourceFile(
      file,
      readFileSync(join(tree, file), 'utf8'),
      ts.ScriptTarget.Latest,
      true,
    )
    const visit = (node: ts.Node) => {
      if (
        (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) &&
        /^(alps|blanc)$/i.test(node.text)
      )
        found.push({ file, name: node.text })
      ts.forEachChild(node, visit)
    }
    visit(source)
  }
  return found
}

test('no domain module names an API version: records and results say how, not through which version', () => {
  expect(versionLiterals(root)).toEqual([])
})

test('a version named in a domain module fails the literal check; http/ and the explorer may', () => {
  const tree = mkdtempSync(join(probeTree, 'literals-'))
  const probes: Record<string, string> = {
    'simulator/intents/record.ts': "export type R = { version: 'alps' | 'blanc' }\n",
    'simulator/settlement/branch.ts': 'export const f = (v: string) => (v === `blanc` ? 1 : 2)\n',
    'simulator/http/versions/shape.ts': "export const v = 'alps'\n",
    'simulator/explorer/summary.ts': "export const v = 'blanc'\n",
    'simulator/quoting/neutral.ts': "export const note = 'alpsish'\n",
  }
  for (const [file, text] of Object.entries(probes)) {
    mkdirSync(join(tree, dirname(file)), { recursive: true })
    writeFileSync(join(tree, file), text)
  }
  expect(
    versionLiterals(tree).sort((a, b) => a.file.localeCompare(b.file) || a.name.localeCompare(b.name)),
  ).toEqual([
    { file: 'simulator/intents/record.ts', name: 'alps' },
    { file: 'simulator/intents/record.ts', name: 'blanc' },
    { file: 'simulator/settlement/branch.ts', name: 'blanc' },
  ])
})
