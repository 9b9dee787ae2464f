import { createHash } from 'node:crypto'
import { mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { isDeepStrictEqual } from 'node:util'

/**
 * YAML already read, by the SHA-256 of its text: the value `yaml` made of it (plain JSON). A
 * cold process spends about 0.3 s reading the bundled packs' YAML (the parser is not yet
 * optimized by V8); with the cache it reads one JSON file. The scenarios are still validated
 * (zod) on every load, and a text that does not parse is never cached, so its problems are
 * always reported from the YAML itself.
 *
 * Kept in a folder of the temp dir that only this user may write (else not used), so nobody
 * else can plant a scenario; `INTENT_DEVNET_SCENARIO_CACHE=0` turns it off.
 */
export type YamlCache = {
  /** The cached value of a text, or undefined. */
  get(text: string): unknown
  /** Remembers the value of a text (only if it survives JSON as is). */
  set(text: string, value: unknown): void
  /**
   * Writes the cache back if anything was added (entries not used by this load are dropped past
   * {@link MAX_ENTRIES}); true when it wrote.
   */
  save(): boolean
}

/** Bump when what is cached changes meaning (the `yaml` options of loadScenarios). */
const FORMAT = 1
const MAX_ENTRIES = 2000

const digest = (text: string) => createHash('sha256').update(text).digest('base64url')

/** The cache's folder, if it is this user's alone; undefined otherwise. */
function privateDir(): string | undefined {
  if (process.env.INTENT_DEVNET_SCENARIO_CACHE === '0') return undefined
  const uid = process.getuid?.()
  const dir = join(tmpdir(), `intent-devnet-cache-${uid ?? 'user'}`)
  try {
    mkdirSync(dir, { recursive: true, mode: 0o700 })
    const stat = statSync(dir)
    if (!stat.isDirectory() || (uid !== undefined && stat.uid !== uid) || (stat.mode & 0o022) !== 0)
      return undefined
    return dir
  } catch {
    return undefined
  }
}

/**
 * Opens the YAML cache (an empty one that saves nothing when it cannot be used); `file` puts
 * it elsewhere (tests).
 *
 * @example
 * const cache = openYamlCache()
 * const value = cache.get(text) ?? parse(text)
 */
export function openYamlCache(options: { file?: string | undefined } = {}): YamlCache {
  const dir = options.file ? undefined : privateDir()
  return openJsonCache(options.file ?? (dir && join(dir, `scenarios-yaml.v${FORMAT}.json`)))
}

/** What a CLI bundle sets (bin/intent-devnet.js): its path, size and mtime, which name its code. */
const BUILD = Symbol.for('intent-devnet.build')

/** Most validated-scenario files kept (one per build of the CLI; the oldest go first). */
const MAX_BUILDS = 8

/**
 * The scenarios a build of the CLI validated, by the SHA-256 of their text: the value its zod
 * schema gave (plain JSON). Validation is a function of the text and of the code, and the code
 * is the bundle bin/intent-devnet.js runs (zod included), named by its path, size and mtime as
 * its code cache is: a text this build validated before is taken as it was then, without the
 * ~0.1 s of cold zod a load of the packs spends (BENCHMARKS.md). Only a text that validated is
 * kept, so a problem is always reported from the YAML. Undefined when the code is not a CLI
 * bundle (the sources under tsx, the library, tests) or the cache cannot be used: every text is
 * then validated. `INTENT_DEVNET_SCENARIO_CACHE=0` turns it off with the YAML cache.
 */
export function openValidatedCache(): YamlCache | undefined {
  const build = (globalThis as { [BUILD]?: string })[BUILD]
  if (typeof build !== 'string') return undefined
  const dir = privateDir()
  if (!dir) return undefined
  const name = `scenarios-valid.${createHash('sha256').update(build).digest('hex').slice(0, 16)}.json`
  const cache = openJsonCache(join(dir, name))
  return {
    ...cache,
    save() {
      if (!cache.save()) return false
      // Older builds' files go (each is one build's; a build not among the newest fills its own again).
      try {
        const files = readdirSync(dir)
          .filter((f) => /^scenarios-valid\.[0-9a-f]{16}\.json$/.test(f) && f !== name)
          .map((f) => ({ f, at: statSync(join(dir, f)).mtimeMs }))
          .sort((a, b) => b.at - a.at)
        for (const { f } of files.slice(MAX_BUILDS - 1)) rmSync(join(dir, f), { force: true })
      } catch {}
      return true
    },
  }
}

/** A cache of JSON values by the SHA-256 of a text, kept in `file` (none: it keeps nothing). */
function openJsonCache(file: string | undefined): YamlCache {
  let stored: Record<string, unknown> = {}
  if (file)
    try {
      const parsed = JSON.parse(readFileSync(file, 'utf8'))
      if (parsed && typeof parsed === 'object' && !Array.isArray(parsed)) stored = parsed
    } catch {}
  const used: Record<string, unknown> = {}
  let added = false
  return {
    get(text) {
      const key = digest(text)
      if (!Object.hasOwn(stored, key)) return undefined
      used[key] = stored[key]
      return stored[key]
    },
    set(text, value) {
      if (!file) return
      // Only values JSON keeps exactly (no .inf, no -0 …): what the cache gives back is what YAML gave.
      let json: string
      try {
        json = JSON.stringify(value)
      } catch {
        return
      }
      if (json === undefined) return
      const copy = JSON.parse(json)
      if (!isDeepStrictEqual(copy, value)) return
      used[digest(text)] = copy
      added = true
    },
    save() {
      if (!file || !added) return false
      const others = Object.entries(stored).filter(([key]) => !Object.hasOwn(used, key))
      const room = Math.max(0, MAX_ENTRIES - Object.keys(used).length)
      const kept = { ...Object.fromEntries(others.slice(others.length - room)), ...used }
      try {
        const temporary = `${file}.${process.pid}.tmp`
        writeFileSync(temporary, JSON.stringify(kept), { mode: 0o600 })
        renameSync(temporary, file)
        return true
      } catch {
        return false
      }
    },
  }
}
