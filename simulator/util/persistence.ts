import {
  closeSync,
  existsSync,
  fsyncSync,
  mkdirSync,
  openSync,
  readFileSync,
  renameSync,
  writeSync,
} from 'node:fs'
import { mkdir, open, readdir, rename, rm } from 'node:fs/promises'
import { dirname, join } from 'node:path'
import { BaseError } from '../../spec/BaseError'

/** A state file in the state dir exists but cannot be read back (not the JSON this module wrote). */
export class StateFileError extends BaseError {
  override name = 'Persistence.StateFileError'
  constructor(path: string, cause: unknown) {
    super(`Could not read the state file ${path}.`, {
      cause,
      details: cause instanceof Error ? cause.message : String(cause),
      data: { path },
    })
  }
}

let temps = 0
// Unique per write: two writes of one file in flight never share a temp file.
const tempOf = (path: string) => `${path}.${process.pid}.${++temps}.tmp`
/** A temp file {@link tempOf} names: `<file>.<pid>.<n>.tmp`. */
const TEMP_FILE = /\.(\d+)\.\d+\.tmp$/

/**
 * Removes the temp files a killed process left in `dir` and below (a write cut short between
 * its temp file and the rename): every `<file>.<pid>.<n>.tmp` not of this process. The files
 * they were to replace are whole (old or new). Call it once no other process writes there.
 *
 * @example
 * const removed = await removeStaleTempFiles(stateDir) // ['intents/12.json.4242.3.tmp']
 */
export async function removeStaleTempFiles(dir: string): Promise<string[]> {
  if (!existsSync(dir)) return []
  const names = await readdir(dir, { recursive: true })
  const stale = names.filter((name) => {
    const pid = TEMP_FILE.exec(name)?.[1]
    return pid !== undefined && Number(pid) !== process.pid
  })
  await Promise.all(stale.map((name) => rm(join(dir, name), { force: true })))
  return stale
}

/** Makes a rename in `dir` durable: the directory entry itself is flushed. */
function fsyncDirSync(dir: string): void {
  let fd: number | undefined
  try {
    fd = openSync(dir, 'r')
    fsyncSync(fd)
  } catch {
    // Some platforms (Windows) cannot open or flush a directory; the rename is still atomic there.
  } finally {
    if (fd !== undefined) closeSync(fd)
  }
}

/** Replaces a file atomically and durably: temp file written and flushed, renamed over it, directory flushed. */
function writeFileAtomicSync(path: string, text: string): void {
  const dir = dirname(path)
  mkdirSync(dir, { recursive: true })
  const temp = tempOf(path)
  const fd = openSync(temp, 'w')
  try {
    writeSync(fd, text)
    fsyncSync(fd)
  } finally {
    closeSync(fd)
  }
  renameSync(temp, path)
  fsyncDirSync(dir)
}

/** Replaces a text file atomically and durably, without blocking the event loop (see {@link writeJsonAtomic}). */
export async function writeFileAtomic(path: string, text: string): Promise<void> {
  const dir = dirname(path)
  await mkdir(dir, { recursive: true })
  const temp = tempOf(path)
  const file = await open(temp, 'w')
  try {
    await file.writeFile(text)
    await file.sync()
  } finally {
    await file.close()
  }
  await rename(temp, path)
  const directory = await open(dir, 'r').catch(() => undefined)
  if (!directory) return
  await directory.sync().catch(() => undefined)
  await directory.close()
}

/**
 * Writes `value` as JSON, atomically and durably: a temp file beside `path` is written and
 * flushed, renamed over it, and the directory flushed. A crash at any point leaves the old or the
 * new file, never half of one.
 *
 * @example
 * writeJsonAtomicSync('.state/deposit-processor.json', { version: 1 })
 */
export function writeJsonAtomicSync(path: string, value: unknown): void {
  writeFileAtomicSync(path, JSON.stringify(value))
}

/** {@link writeJsonAtomicSync} without blocking the event loop. */
export function writeJsonAtomic(path: string, value: unknown): Promise<void> {
  return writeFileAtomic(path, JSON.stringify(value))
}

const parse = <value>(path: string, text: string): value => {
  try {
    return JSON.parse(text) as value
  } catch (error) {
    throw new StateFileError(path, error)
  }
}

/** Reads a JSON file, or undefined when it does not exist; throws {@link StateFileError} when it is not JSON. */
export function readJsonSync<value>(path: string): value | undefined {
  if (!existsSync(path)) return undefined
  return parse<value>(path, readFileSync(path, 'utf8'))
}

/** Options of {@link appendJsonLineSync}. */
export type AppendJsonLineOptions = {
  /** Flush to disk before returning: for a line that must survive a crash of the machine. Default false. */
  durable?: boolean | undefined
}

/**
 * Appends one JSON line to an append-only log. A crash can cut only the line being written,
 * which {@link readJsonLinesSync} skips; `durable` lines are on disk when this returns.
 *
 * @example
 * appendJsonLineSync('.state/webhook-outbox.jsonl', event, { durable: true })
 */
export function appendJsonLineSync(path: string, value: unknown, options: AppendJsonLineOptions = {}): void {
  const fd = openSync(path, 'a')
  try {
    writeSync(fd, `${JSON.stringify(value)}\n`)
    if (options.durable) fsyncSync(fd)
  } finally {
    closeSync(fd)
  }
}

/**
 * Reads a JSON-lines log, or [] when it does not exist. A torn last line (a crash mid-append) is
 * skipped; a bad line before it throws {@link StateFileError}.
 */
export function readJsonLinesSync<value>(path: string): value[] {
  if (!existsSync(path)) return []
  const lines = readFileSync(path, 'utf8')
    .split('\n')
    .filter((line) => line.trim() !== '')
  const values: value[] = []
  for (const [index, line] of lines.entries()) {
    try {
      values.push(JSON.parse(line) as value)
    } catch (error) {
      if (index < lines.length - 1) throw new StateFileError(path, error)
    }
  }
  return values
}

/** Rewrites a JSON-lines log atomically and durably (compaction of an append-only log). */
export function writeJsonLinesAtomicSync(path: string, values: readonly unknown[]): void {
  writeFileAtomicSync(path, values.map((value) => `${JSON.stringify(value)}\n`).join(''))
}
