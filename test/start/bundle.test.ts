import { spawn } from 'node:child_process'
import { cpSync, mkdtempSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, relative } from 'node:path'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'

// The bin runs the CLI from dist/intent-devnet.mjs only while no source it was built from has
// changed, and rebuilds it otherwise (issue 18). Checked on a copy of the project (its own
// dist/, node_modules linked), so editing a source here does not touch the working tree.
const root = join(import.meta.dirname, '../..')
let copy: string

const run = (args: string[], env: Record<string, string> = {}) =>
  new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => {
    const child = spawn(process.execPath, ['bin/intent-devnet.js', ...args], {
      cwd: copy,
      env: { ...process.env, ...env },
    })
    let stdout = ''
    let stderr = ''
    child.stdout.on('data', (data) => (stdout += data))
    child.stderr.on('data', (data) => (stderr += data))
    child.on('close', (code) => resolve({ code, stdout, stderr }))
  })

const bundleMtime = () => statSync(join(copy, 'dist/intent-devnet.mjs')).mtimeMs
const editDescription = (file: string, from: string, to: string) => {
  const path = join(copy, file)
  const text = readFileSync(path, 'utf8')
  expect(text).toContain(from)
  writeFileSync(path, text.replace(from, to))
}

beforeAll(() => {
  copy = mkdtempSync(join(tmpdir(), 'bundle-freshness-'))
  // The whole project as a user has it, but its own dist/ (and no git or reports).
  const skip = new Set(['node_modules', '.git', 'dist', 'reports', '.state'])
  cpSync(root, copy, {
    recursive: true,
    filter: (source) => !skip.has(relative(root, source).split('/')[0]!),
  })
  symlinkSync(join(root, 'node_modules'), join(copy, 'node_modules'))
})
afterAll(() => {
  if (copy) rmSync(copy, { recursive: true, force: true })
})

describe('bin/intent-devnet.js and its bundle', () => {
  test('builds the bundle on first run, reuses it unchanged, and rebuilds it when a source changes', async () => {
    const first = await run(['--help'])
    expect(first.stderr).toBe('')
    expect(first.stdout).toContain('A local devnet of the cross-chain intent service')
    const built = bundleMtime()

    // Nothing changed: the same bundle runs, not rebuilt.
    const again = await run(['--help'])
    expect(again.stdout).toBe(first.stdout)
    expect(bundleMtime()).toBe(built)

    // The entry point and a module deep in the graph (loaded lazily by its subcommand) changed:
    // the next run shows both.
    editDescription('simulator/cli/main.ts', 'A local devnet of the', 'A freshly edited devnet of the')
    editDescription(
      'conformance/cli.ts',
      'Run the conformance scenario packs',
      'Run the edited scenario packs',
    )
    const edited = await run(['--help'])
    expect(edited.stdout).toContain('A freshly edited devnet of the cross-chain intent service')
    expect(edited.stdout).toContain('Run the edited scenario packs')
    expect(bundleMtime()).not.toBe(built)
    expect(readFileSync(join(copy, 'dist/intent-devnet.mjs'), 'utf8')).toContain('A freshly edited devnet')
  })

  test('the V8 code cache is written once, used after, and never used for another bundle or when V8 rejects it', async () => {
    const cache = join(copy, 'dist/intent-devnet.other.cache')
    const debug = { INTENT_DEVNET_DEBUG: '1' }
    rmSync(cache, { force: true })
    const first = await run(['--help'], debug)
    expect(first.stderr).toContain('code cache absent')
    const written = readFileSync(cache)
    const used = await run(['--help'], debug)
    expect(used.stderr).toContain('code cache used')
    expect(used.stdout).toBe(first.stdout)
    // Not rewritten when it was used.
    expect(readFileSync(cache).equals(written)).toBe(true)

    // Damaged after its header (which still names this bundle; V8 itself would crash on it): not
    // used, the CLI runs as without one, and the run writes a good one.
    const header = written.indexOf(10) + 1
    const damaged = Buffer.from(written)
    damaged.fill(7, header + 64, header + 4096)
    writeFileSync(cache, damaged)
    const notUsed = await run(['--help'], debug)
    expect(notUsed.code).toBe(0)
    expect(notUsed.stderr).toContain('code cache damaged')
    expect(notUsed.stdout).toBe(first.stdout)
    expect((await run(['--help'], debug)).stderr).toContain('code cache used')

    // Made under other V8 flags: V8 rejects it, the CLI runs as without one.
    const otherFlags = await run(['--help'], { ...debug, NODE_OPTIONS: '--jitless' })
    expect(otherFlags.stderr).toContain('code cache rejected')
    expect(otherFlags.stdout).toBe(first.stdout)

    // A source changed: the rebuilt bundle does not take the old bundle's cache.
    editDescription('simulator/cli/main.ts', 'print whole error chains', 'print whole (cached) error chains')
    const rebuilt = await run(['--help'], debug)
    expect(rebuilt.stderr).toContain('code cache stale')
    expect(rebuilt.stdout).toContain('print whole (cached) error chains')
    expect((await run(['--help'], debug)).stdout).toContain('print whole (cached) error chains')

    // Off: the bundle is imported as the ES module it also is.
    const off = await run(['--help'], { ...debug, INTENT_DEVNET_CODE_CACHE: '0' })
    expect(off.stderr).not.toContain('code cache')
    expect(off.stdout).toContain('print whole (cached) error chains')
  })

  test('INTENT_DEVNET_BUNDLE=0 runs the sources through tsx', async () => {
    editDescription('simulator/cli/main.ts', 'devnet of the', 'devnet (from the sources) of the')
    const built = bundleMtime()
    const sources = await run(['--help'], { INTENT_DEVNET_BUNDLE: '0' })
    expect(sources.stdout).toContain('devnet (from the sources) of the')
    expect(bundleMtime()).toBe(built)
  })

  test('a source that does not build falls back to tsx, which reports the error', async () => {
    writeFileSync(
      join(copy, 'simulator/cli/main.ts'),
      `${readFileSync(join(copy, 'simulator/cli/main.ts'), 'utf8')}\nconst = 1\n`,
    )
    const broken = await run(['--help'])
    expect(broken.code).not.toBe(0)
    expect(broken.stderr).toMatch(/main\.ts/)
  })
})
