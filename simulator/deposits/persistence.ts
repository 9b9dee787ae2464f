import { appendFileSync, existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs'
import { dirname } from 'node:path'
import { StateFileError } from './errors'

/** Writes JSON atomically: a temp file beside the target, then rename (a crash leaves the old or the new file, never half). */
export function writeJsonAtomic(path: string, value: unknown): void {
  mkdirSync(dirname(path), { recursive: true })
  const temp = `${path}.${process.pid}.tmp`
  writeFileSync(temp, JSON.stringify(value))
  renameSync(temp, path)
}

/** Reads a JSON file, or undefined when it does not exist. */
export function readJson<value>(path: string): value | undefined {
  if (!existsSync(path)) return undefined
  try {
    return JSON.parse(readFileSync(path, 'utf8')) as value
  } catch (error) {
    throw new StateFileError(path, error)
  }
}

/** Appends one JSON line (an append-only log: a crash can cut only the last line). */
export function appendJsonLine(path: string, value: unknown): void {
  appendFileSync(path, `${JSON.stringify(value)}\n`)
}

/** Reads a JSON-lines file; a torn last line (a crash mid-append) is skipped. */
export function readJsonLines<value>(path: string): value[] {
  if (!existsSync(path)) return []
  const lines = readFileSync(path, 'utf8').split('\n')
  const values: value[] = []
  for (const [index, line] of lines.entries()) {
    if (line.trim() === '') continue
    try {
      values.push(JSON.parse(line) as value)
    } catch (error) {
      if (index < lines.length - 2) throw new StateFileError(path, error)
    }
  }
  return values
}

/** Rewrites a JSON-lines file atomically (temp file + rename): used to compact an append-only log. */
export function writeJsonLinesAtomic(path: string, values: readonly unknown[]): void {
  mkdirSync(dirname(path), { recursive: true })
  const temp = `${path}.${process.pid}.tmp`
  writeFileSync(temp, values.map((value) => `${JSON.stringify(value)}\n`).join(''))
  renameSync(temp, path)
}
