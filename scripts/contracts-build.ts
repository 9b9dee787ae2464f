/**
 * Compiles every `contracts/src/**\/*.sol` with solc-js (standard JSON) and writes one typed module,
 * `contracts/generated/artifacts.ts`, with `{ abi, bytecode, deployedBytecode } as const` for each
 * concrete contract.
 *
 * @example
 * npm run contracts:build          # compile and write contracts/generated/artifacts.ts
 * npm run contracts:check          # compile in memory; exit 1 if the generated file is stale
 */
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { dirname, join, relative, sep } from 'node:path'
import { fileURLToPath } from 'node:url'

const require = createRequire(import.meta.url)

/** The pinned compiler version; the build refuses any other. */
export const solcVersion = '0.8.30'

const root = join(dirname(fileURLToPath(import.meta.url)), '..')
const sourceDir = join(root, 'contracts', 'src')
const outputPath = join(root, 'contracts', 'generated', 'artifacts.ts')

type SolcError = { severity: 'error' | 'warning' | 'info'; formattedMessage: string; message: string }
type AstNode = {
  nodeType: string
  name?: string
  abstract?: boolean
  contractKind?: string
  nodes?: AstNode[]
}
type SolcOutput = {
  errors?: SolcError[]
  sources?: Record<string, { ast: AstNode }>
  contracts?: Record<
    string,
    Record<
      string,
      { abi: unknown[]; evm: { bytecode: { object: string }; deployedBytecode: { object: string } } }
    >
  >
}

/** One compiled contract as it lands in the generated module. */
export type Artifact = {
  name: string
  source: string
  abi: unknown[]
  bytecode: string
  deployedBytecode: string
}

function listSources(dir: string): string[] {
  const out: string[] = []
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name)
    if (entry.isDirectory()) out.push(...listSources(path))
    else if (entry.name.endsWith('.sol')) out.push(path)
  }
  return out.sort()
}

/** Source unit names are repo-relative POSIX paths, so relative imports resolve among them. */
function unitName(path: string): string {
  return relative(root, path).split(sep).join('/')
}

/**
 * Compiles all sources and returns the concrete contracts, sorted by name.
 *
 * @returns the artifacts, the warnings (formatted, with file:line) and the compile time in ms.
 */
export function compile(): { artifacts: Artifact[]; warnings: string[]; ms: number } {
  const started = performance.now()
  const solc = require('solc') as { version(): string; compile(input: string, callbacks?: object): string }
  if (!solc.version().startsWith(`${solcVersion}+`))
    throw new Error(`solc ${solc.version()} is installed; this build is pinned to ${solcVersion}.`)

  const files = existsSync(sourceDir) ? listSources(sourceDir) : []
  const sources: Record<string, { content: string }> = {}
  for (const file of files) sources[unitName(file)] = { content: readFileSync(file, 'utf8') }

  const input = {
    language: 'Solidity',
    sources,
    settings: {
      optimizer: { enabled: true, runs: 200 },
      evmVersion: 'cancun',
      viaIR: false,
      metadata: { bytecodeHash: 'none', appendCBOR: false },
      outputSelection: {
        '*': { '*': ['abi', 'evm.bytecode.object', 'evm.deployedBytecode.object'], '': ['ast'] },
      },
    },
  }
  const findImports = (path: string) => {
    const full = join(root, path)
    return existsSync(full) ? { contents: readFileSync(full, 'utf8') } : { error: `File not found: ${path}` }
  }
  const output = JSON.parse(solc.compile(JSON.stringify(input), { import: findImports })) as SolcOutput

  const problems = output.errors ?? []
  const errors = problems.filter((e) => e.severity === 'error')
  if (errors.length > 0) {
    const text = errors.map((e) => e.formattedMessage.trim()).join('\n\n')
    throw new Error(`Solidity compilation failed with ${errors.length} error(s):\n\n${text}`)
  }
  const warnings = problems.filter((e) => e.severity === 'warning').map((e) => e.formattedMessage.trim())

  // Only concrete `contract`s: interfaces, abstract contracts and libraries are not placed.
  const concrete = new Set<string>()
  for (const [source, { ast }] of Object.entries(output.sources ?? {}))
    for (const node of ast.nodes ?? [])
      if (node.nodeType === 'ContractDefinition' && node.contractKind === 'contract' && !node.abstract)
        concrete.add(`${source}:${node.name}`)

  const artifacts: Artifact[] = []
  const seen = new Map<string, string>()
  for (const [source, contracts] of Object.entries(output.contracts ?? {})) {
    for (const [name, contract] of Object.entries(contracts)) {
      if (!concrete.has(`${source}:${name}`) || contract.evm.bytecode.object === '') continue
      const other = seen.get(name)
      if (other)
        throw new Error(`Two contracts are named ${name} (${other} and ${source}); names must be unique.`)
      seen.set(name, source)
      artifacts.push({
        name,
        source,
        abi: contract.abi,
        bytecode: `0x${contract.evm.bytecode.object}`,
        deployedBytecode: `0x${contract.evm.deployedBytecode.object}`,
      })
    }
  }
  artifacts.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))
  return { artifacts, warnings, ms: performance.now() - started }
}

/** Renders the generated module; deterministic for the same artifacts. */
export function render(artifacts: Artifact[]): string {
  const lines = [
    `// Generated by scripts/contracts-build.ts (solc ${solcVersion}) from contracts/src. Do not edit.`,
    '// Run `npm run contracts:build` after changing a contract.',
    '',
  ]
  for (const a of artifacts) {
    lines.push(`/** ${a.name}, from ${a.source}. */`)
    lines.push(`export const ${a.name} = {`)
    lines.push('  abi: [')
    for (const item of a.abi) lines.push(`    ${JSON.stringify(item)},`)
    lines.push('  ] as const,')
    lines.push(`  bytecode: '${a.bytecode}',`)
    lines.push(`  deployedBytecode: '${a.deployedBytecode}',`)
    lines.push('} as const')
    lines.push('')
  }
  return lines.join('\n')
}

function main() {
  const check = process.argv.includes('--check')
  let result: ReturnType<typeof compile>
  try {
    result = compile()
  } catch (error) {
    console.error((error as Error).message)
    process.exit(1)
  }
  for (const w of result.warnings) console.warn(w)
  const text = render(result.artifacts)
  const summary = `${result.artifacts.length} contracts compiled in ${(result.ms / 1000).toFixed(1)} s`
  const rel = unitName(outputPath)
  if (check) {
    const current = existsSync(outputPath) ? readFileSync(outputPath, 'utf8') : ''
    if (current !== text) {
      console.error(`${rel} is out of date with contracts/src (${summary}). Run \`npm run contracts:build\`.`)
      process.exit(1)
    }
    console.log(`${rel} is up to date (${summary}).`)
    return
  }
  writeFileSync(outputPath, text)
  console.log(`Wrote ${rel}: ${summary}.`)
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) main()
