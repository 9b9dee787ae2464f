import { spawn } from 'node:child_process'
import { createHash } from 'node:crypto'
import { cpSync, mkdtempSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, relative } from 'node:path'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'

// The bin runs the CLI from dist/intent-devnet.mjs only while no source it was built from has
// changed, and rebuilds it otherwise (issue 18). Checked on copies of the project (their own
// dist/, node_modules linked), so editing a source here does not touch the working tree. The
// bundle is built in one copy (the first test), which the tsx paths' copies then start from: each
// copy is edited by one test only, so those run side by side.
const root = join(import.meta.dirname, '../..')
const copies: string[] = []
let copy: string

/** A copy of the project as a user has it (no git or reports), its node_modules linked. */
const copyProject = (from: string) => {
  const to = mkdtempSync(join(tmpdir(), 'bundle-freshness-'))
  copies.push(to)
  const skip = new Set(['node_modules', '.git', 'reports', '.state', ...(from === root ? ['dist'] : [])])
  cpSync(from, to, {
    recursive: true,
    filter: (source) => !skip.has(relative(from, source).split('/')[0]!),
  })
  symlinkSync(join(root, 'node_modules'), join(to, 'node_modules'))
  return to
}

const run = (cwd: string, args: string[], env: Record<string, string> = {}, stdin?: string) =>
  new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => {
    const child = spawn(process.execPath, ['bin/intent-devnet.js', ...args], {
      cwd,
      env: { ...process.env, ...env },
    })
    child.stdin.on('error', () => {})
    if (stdin !== undefined) child.stdin.end(stdin)
    let stdout = ''
    let stderr = ''
    child.stdout.on('data', (data) => (stdout += data))
    child.stderr.on('data', (data) => (stderr += data))
    child.on('close', (code) => resolve({ code, stdout, stderr }))
  })

const bundleMtime = (cwd: string) => statSync(join(cwd, 'dist/intent-devnet.mjs')).mtimeMs
const editDescription = (cwd: string, file: string, from: string, to: string) => {
  const path = join(cwd, file)
  const text = readFileSync(path, 'utf8')
  if (!text.includes(from)) throw new Error(`${file} no longer says "${from}"`)
  writeFileSync(path, text.replace(from, to))
}

beforeAll(() => {
  copy = copyProject(root)
})
afterAll(() => {
  for (const dir of copies) rmSync(dir, { recursive: true, force: true })
})

describe('bin/intent-devnet.js and its bundle', () => {
  let first: { stdout: string; stderr: string }

  test('builds the bundle on first run and reuses it unchanged', async () => {
    first = await run(copy, ['--help'])
    expect(first.stderr).toBe('')
    expect(first.stdout).toContain('A local devnet of the cross-chain intent service')
    const built = bundleMtime(copy)

    // Nothing changed: the same bundle runs, not rebuilt.
    const again = await run(copy, ['--help'])
    expect(again.stdout).toBe(first.stdout)
    expect(bundleMtime(copy)).toBe(built)
  })

  describe.concurrent('once built', () => {
    let sourcesCopy: string
    let brokenCopy: string
    let childCopy: string
    beforeAll(() => {
      sourcesCopy = copyProject(copy)
      brokenCopy = copyProject(copy)
      childCopy = copyProject(copy)
    })

    test('the local-target child runs the bundle its parent found fresh (one stat, the first line of its stdin); nothing else trusts that', async ({
      expect,
    }) => {
      const built = statSync(join(childCopy, 'dist/intent-devnet.mjs'))
      const checked = { INTENT_DEVNET_BUNDLE_CHECKED: 'stdin' }
      const line = `${built.size} ${built.mtimeMs}\n`
      // A source changed after the parent's check: the child runs the same bundle as its parent.
      editDescription(childCopy, 'cli/main.ts', 'devnet of the', 'devnet (edited) of the')
      const child = await run(childCopy, ['local-target', '--help'], checked, line)
      expect(child.code).toBe(0)
      expect(child.stdout).toContain('Start the simulator a conformance or fuzz run judges')
      expect(bundleMtime(childCopy)).toBe(built.mtimeMs)
      // Its stdin ends before the line (the parent is gone): it stops, and runs nothing.
      const orphan = await run(childCopy, ['local-target', '--help'], checked, '')
      expect(orphan).toMatchObject({ code: 1, stdout: '' })
      // The size and mtime only in the environment: not trusted.
      const env = await run(childCopy, ['local-target', '--help'], {
        INTENT_DEVNET_BUNDLE_CHECKED: line.trim(),
      })
      expect(env.stdout).toContain('Start the simulator a conformance or fuzz run judges')
      const rebuilt = bundleMtime(childCopy)
      expect(rebuilt).not.toBe(built.mtimeMs)
      // Any other command checks every source, and rebuilds.
      editDescription(childCopy, 'cli/main.ts', 'devnet (edited) of the', 'devnet (edited twice) of the')
      const other = await run(
        childCopy,
        ['--help'],
        checked,
        `${statSync(join(childCopy, 'dist/intent-devnet.mjs')).size} ${rebuilt}\n`,
      )
      expect(other.stdout).toContain('devnet (edited twice) of the')
      expect(bundleMtime(childCopy)).not.toBe(rebuilt)
    })

    test('the V8 code cache is written once, used after, and never used for another bundle or when V8 rejects it; a changed source rebuilds the bundle', async ({
      expect,
    }) => {
      // The bin keeps its code cache in the user's cache directory, one folder per install (the
      // hash of its root), never in the package: a cache home of this test's own.
      const cacheHome = mkdtempSync(join(tmpdir(), 'bundle-cache-'))
      const installHash = createHash('sha1').update(`${copy}/`).digest('hex').slice(0, 16)
      const cache = join(cacheHome, 'intent-devnet', installHash, 'intent-devnet.other.cache')
      const debug = { INTENT_DEVNET_DEBUG: '1', XDG_CACHE_HOME: cacheHome }
      const built = bundleMtime(copy)
      rmSync(cache, { force: true })
      const absent = await run(copy, ['--help'], debug)
      expect(absent.stderr).toContain('code cache absent')
      expect(absent.stdout).toBe(first.stdout)
      const written = readFileSync(cache)
      const used = await run(copy, ['--help'], debug)
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
      const notUsed = await run(copy, ['--help'], debug)
      expect(notUsed.code).toBe(0)
      expect(notUsed.stderr).toContain('code cache damaged')
      expect(notUsed.stdout).toBe(first.stdout)
      expect((await run(copy, ['--help'], debug)).stderr).toContain('code cache used')

      // Made under other V8 flags: V8 rejects it, the CLI runs as without one.
      const otherFlags = await run(copy, ['--help'], { ...debug, NODE_OPTIONS: '--jitless' })
      expect(otherFlags.stderr).toContain('code cache rejected')
      expect(otherFlags.stdout).toBe(first.stdout)
      expect(bundleMtime(copy)).toBe(built)

      // The entry point and a module deep in the graph (loaded lazily by its subcommand) changed:
      // the next run rebuilds the bundle and shows both, and does not take the old bundle's cache.
      editDescription(copy, 'cli/main.ts', 'A local devnet of the', 'A freshly edited devnet of the')
      editDescription(copy, 'cli/main.ts', 'print whole error chains', 'print whole (cached) error chains')
      editDescription(
        copy,
        'conformance/cli.ts',
        'Run the conformance scenario packs',
        'Run the edited scenario packs',
      )
      const rebuilt = await run(copy, ['--help'], debug)
      expect(rebuilt.stderr).toContain('code cache stale')
      expect(rebuilt.stdout).toContain('A freshly edited devnet of the cross-chain intent service')
      expect(rebuilt.stdout).toContain('Run the edited scenario packs')
      expect(rebuilt.stdout).toContain('print whole (cached) error chains')
      expect(bundleMtime(copy)).not.toBe(built)
      expect(readFileSync(join(copy, 'dist/intent-devnet.mjs'), 'utf8')).toContain('A freshly edited devnet')
      expect((await run(copy, ['--help'], debug)).stdout).toContain('print whole (cached) error chains')

      // Off: the bundle is imported as the ES module it also is.
      const off = await run(copy, ['--help'], { ...debug, INTENT_DEVNET_CODE_CACHE: '0' })
      expect(off.stderr).not.toContain('code cache')
      expect(off.stdout).toContain('print whole (cached) error chains')
    })

    test('INTENT_DEVNET_BUNDLE=0 runs the sources through tsx', async ({ expect }) => {
      editDescription(sourcesCopy, 'cli/main.ts', 'devnet of the', 'devnet (from the sources) of the')
      const built = bundleMtime(sourcesCopy)
      const sources = await run(sourcesCopy, ['--help'], { INTENT_DEVNET_BUNDLE: '0' })
      expect(sources.stdout).toContain('devnet (from the sources) of the')
      expect(bundleMtime(sourcesCopy)).toBe(built)
    })

    test('a source that does not build falls back to tsx, which reports the error', async ({ expect }) => {
      writeFileSync(
        join(brokenCopy, 'cli/main.ts'),
        `${readFileSync(join(brokenCopy, 'cli/main.ts'), 'utf8')}\nconst = 1\n`,
      )
      const broken = await run(brokenCopy, ['--help'])
      expect(broken.code).not.toBe(0)
      expect(broken.stderr).toMatch(/main\.ts/)
    })
  })
})
