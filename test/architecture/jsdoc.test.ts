import { readdirSync, readFileSync } from 'node:fs'
import { join, relative } from 'node:path'
import ts from 'typescript'
import { expect, test } from 'vitest'

const root = join(import.meta.dirname, '..', '..')

/** Source files of the simulator and the conformance suite (tests, test helpers and generated code aside). */
function sources(): string[] {
  return ['spec', 'lib', 'cli', 'simulator', 'conformance']
    .flatMap((dir) =>
      readdirSync(join(root, dir), { recursive: true, encoding: 'utf8' }).map((f) => join(dir, f)),
    )
    .filter((f) => f.endsWith('.ts') && !f.endsWith('.test.ts') && !f.includes('/testing/'))
}

/** Exported functions (declarations and arrow/function constants) of a file, with their JSDoc. */
function exportedFunctions(file: string) {
  const source = ts.createSourceFile(
    file,
    readFileSync(join(root, file), 'utf8'),
    ts.ScriptTarget.Latest,
    true,
  )
  return source.statements.flatMap((statement) => {
    const exported =
      ts.canHaveModifiers(statement) &&
      ts.getModifiers(statement)?.some((m) => m.kind === ts.SyntaxKind.ExportKeyword)
    if (!exported) return []
    let name: string | undefined
    if (ts.isFunctionDeclaration(statement)) name = statement.name?.text
    else if (ts.isVariableStatement(statement)) {
      const [declaration] = statement.declarationList.declarations
      const init = declaration?.initializer
      if (
        init &&
        (ts.isArrowFunction(init) || ts.isFunctionExpression(init)) &&
        ts.isIdentifier(declaration.name)
      )
        name = declaration.name.text
    }
    if (!name) return []
    const docs = ts.getJSDocCommentsAndTags(statement).filter(ts.isJSDoc)
    const text = docs.map((doc) => ts.getTextOfJSDocComment(doc.comment) ?? '').join(' ')
    const hasExample = docs.some((doc) => doc.tags?.some((tag) => tag.tagName.text === 'example'))
    return [
      { where: `${relative(root, join(root, file))}: ${name}`, documented: text.trim() !== '', hasExample },
    ]
  })
}

test('every exported function has a JSDoc summary', () => {
  const undocumented = sources()
    .flatMap(exportedFunctions)
    .filter((f) => !f.documented)
    .map((f) => f.where)
  expect(undocumented).toEqual([])
})

test('the entry points show an @example', () => {
  const entryPoints = [
    'simulator/startSimulator.ts: startSimulator',
    'simulator/startSimulator.ts: createServices',
    'simulator/devnet/startDevnet.ts: startDevnet',
    'simulator/http/app.ts: buildApp',
    'simulator/http/startService.ts: startService',
    'conformance/runner/runConformance.ts: runConformance',
    'conformance/runner/runScenario.ts: runScenario',
    'conformance/scenario/loadScenarios.ts: loadScenarios',
  ]
  const all = new Map(
    sources()
      .flatMap(exportedFunctions)
      .map((f) => [f.where, f]),
  )
  expect(entryPoints.filter((where) => !all.get(where)?.hasExample)).toEqual([])
})
