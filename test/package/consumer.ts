// Helpers of the package tests (install.test.ts): one `npm pack` with the package's own
// scripts (prepack builds everything), one install of the tarball into an empty project, and
// small projects beside it (CommonJS, Jest ESM, a strict TypeScript one) that share that
// install: Node resolves node_modules upwards, so each is a fresh project without a new install.
import { execFile, spawn } from 'node:child_process'
import { createHash } from 'node:crypto'
import { mkdirSync, readdirSync, readFileSync, statSync, symlinkSync, writeFileSync } from 'node:fs'
import { join, relative } from 'node:path'

/** The repository's root. */
export const root = join(import.meta.dirname, '..', '..')

/** What a finished command printed. */
export type RunResult = { stdout: string; stderr: string }

/**
 * Runs a command to its end; rejects with its output when it fails.
 *
 * @example
 * const { stdout } = await run('npm', ['pack'], root)
 */
export function run(
  command: string,
  args: string[],
  cwd: string,
  env: NodeJS.ProcessEnv = process.env,
  timeoutMs = 300_000,
): Promise<RunResult> {
  return new Promise((resolve, reject) =>
    execFile(
      command,
      args,
      { cwd, env, maxBuffer: 64 * 1024 * 1024, timeout: timeoutMs },
      (error, stdout, stderr) =>
        error
          ? reject(new Error(`${command} ${args.join(' ')}: ${error.message}\n${stdout}\n${stderr}`))
          : resolve({ stdout, stderr }),
    ),
  )
}

/**
 * Packs the repository (its prepack builds dist/) into `dir`; the tarball's path and file list.
 *
 * @example
 * const { tarball, files } = await packOnce(work)
 */
export async function packOnce(dir: string): Promise<{ tarball: string; files: string[]; size: number }> {
  const { stdout } = await run('npm', ['pack', '--json', '--pack-destination', dir], root)
  // The build scripts print before npm's JSON.
  const [pack] = JSON.parse(stdout.slice(stdout.indexOf('[\n'))) as {
    filename: string
    size: number
    files: { path: string }[]
  }[]
  return { tarball: join(dir, pack!.filename), files: pack!.files.map((file) => file.path), size: pack!.size }
}

/**
 * Writes a project's files (path → content) under `dir`.
 *
 * @example
 * writeProject(join(work, 'cjs'), { 'package.json': '{"type":"commonjs"}' })
 */
export function writeProject(dir: string, files: Record<string, string>): void {
  for (const [path, content] of Object.entries(files)) {
    mkdirSync(join(dir, path, '..'), { recursive: true })
    writeFileSync(join(dir, path), content)
  }
}

/**
 * Links the repository's copies of the integrators' own tools (vitest, jest, testcontainers,
 * typescript, @types/node) into a project's node_modules: what an integrator has installed
 * beside intent-devnet, without fetching them again.
 *
 * @example
 * linkTools(consumer, ['vitest', 'jest'])
 */
export function linkTools(project: string, names: readonly string[]): void {
  for (const name of names) {
    const target = join(project, 'node_modules', name)
    mkdirSync(join(target, '..'), { recursive: true })
    symlinkSync(join(root, 'node_modules', name), target)
  }
}

/**
 * SHA-256 of every file under `dir` by relative path (what a run must leave as it found).
 *
 * @example
 * const before = treeDigest(join(consumer, 'node_modules/intent-devnet'))
 */
export function treeDigest(dir: string): Map<string, string> {
  const out = new Map<string, string>()
  const walk = (path: string) => {
    for (const entry of readdirSync(path)) {
      const full = join(path, entry)
      if (statSync(full).isDirectory()) walk(full)
      else out.set(relative(dir, full), createHash('sha256').update(readFileSync(full)).digest('hex'))
    }
  }
  walk(dir)
  return out
}

/**
 * Whether `url` stops answering (the connection refused) within `ms`, asked every 100 ms.
 *
 * @example
 * expect(await stopsAnswering(`${baseUrl}/health`, 10_000)).toBe(true)
 */
export async function stopsAnswering(url: string, ms: number): Promise<boolean> {
  const deadline = Date.now() + ms
  for (;;) {
    const answering = await fetch(url, { headers: { connection: 'close' } }).then(
      () => true,
      () => false,
    )
    if (!answering) return true
    if (Date.now() >= deadline) return false
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
}

/**
 * Starts `intent-devnet up` (or any command printing the up line) and resolves with its base
 * URL; `stop()` ends its process group as Ctrl-C would.
 *
 * @example
 * const devnet = await startUp(process.execPath, ['node_modules/.bin/intent-devnet', 'up', '--port', '0'], consumer)
 */
export async function startUp(
  command: string,
  args: string[],
  cwd: string,
  env: NodeJS.ProcessEnv = process.env,
  ready = /intent-devnet is up at (http:\/\/\S+)/,
): Promise<{ baseUrl: string; output: () => string; exited: Promise<unknown>; stop: () => Promise<void> }> {
  const child = spawn(command, args, { cwd, env, stdio: ['ignore', 'pipe', 'pipe'], detached: true })
  let output = ''
  const exited = new Promise((resolve) => child.once('exit', resolve))
  const baseUrl = await new Promise<string>((resolve, reject) => {
    const onData = (chunk: Buffer) => {
      output += chunk
      const match = output.match(ready)
      if (match) resolve(match[1] ?? '')
    }
    child.stdout.on('data', onData)
    child.stderr.on('data', onData)
    child.once('exit', (code) => reject(new Error(`exited with ${code}:\n${output}`)))
  })
  return {
    baseUrl,
    output: () => output,
    exited,
    stop: async () => {
      if (child.exitCode === null) process.kill(-child.pid!, 'SIGTERM')
      await exited
    },
  }
}
