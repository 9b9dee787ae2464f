import {
  appendFileSync,
  existsSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs'
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, test } from 'vitest'
import {
  appendJsonLineSync,
  readJsonLinesSync,
  readJsonSync,
  removeStaleTempFiles,
  StateFileError,
  writeJsonAtomic,
  writeJsonAtomicSync,
  writeJsonLinesAtomicSync,
} from './persistence'

let dir: string
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'persistence-'))
})
afterEach(() => rmSync(dir, { recursive: true, force: true }))

describe('atomic JSON files', () => {
  test('written whole (creating the directory), read back, and no temp file is left', async () => {
    const path = join(dir, 'nested', 'state.json')
    writeJsonAtomicSync(path, { version: 1, items: [1, 2] })
    expect(readJsonSync(path)).toEqual({ version: 1, items: [1, 2] })
    writeJsonAtomicSync(path, { version: 2 })
    expect(readJsonSync(path)).toEqual({ version: 2 })
    await writeJsonAtomic(path, { version: 3 })
    expect(readJsonSync(path)).toEqual({ version: 3 })
    expect(readdirSync(join(dir, 'nested'))).toEqual(['state.json'])
  })

  test('concurrent async writes of one file never mix: the file is one of them, whole', async () => {
    const path = join(dir, 'intent.json')
    await Promise.all(
      Array.from({ length: 20 }, (_, i) => writeJsonAtomic(path, { i, pad: 'x'.repeat(10_000) })),
    )
    const written = readJsonSync<{ i: number; pad: string }>(path)
    expect(written?.i).toBeGreaterThanOrEqual(0)
    expect(written?.pad).toHaveLength(10_000)
    expect(readdirSync(dir)).toEqual(['intent.json'])
  })

  test('a missing file reads as undefined; a file that is not JSON is a StateFileError naming it', () => {
    expect(readJsonSync(join(dir, 'absent.json'))).toBeUndefined()
    const path = join(dir, 'broken.json')
    writeFileSync(path, '{"version":')
    let error: unknown
    try {
      readJsonSync(path)
    } catch (caught) {
      error = caught
    }
    expect(error).toBeInstanceOf(StateFileError)
    expect((error as StateFileError).shortMessage.replace(dir, '<dir>')).toMatchInlineSnapshot(
      `"Could not read the state file <dir>/broken.json."`,
    )
    expect((error as StateFileError).data).toEqual({ path })
  })
})

describe('append-only JSON lines', () => {
  test('lines are appended, durable or not, and read back in order', () => {
    const path = join(dir, 'log.jsonl')
    expect(readJsonLinesSync(path)).toEqual([])
    appendJsonLineSync(path, { n: 1 })
    appendJsonLineSync(path, { n: 2 }, { durable: true })
    expect(readFileSync(path, 'utf8')).toBe('{"n":1}\n{"n":2}\n')
    expect(readJsonLinesSync(path)).toEqual([{ n: 1 }, { n: 2 }])
  })

  test('a torn last line (a crash mid-append) is skipped; a bad line before the end throws', () => {
    const path = join(dir, 'log.jsonl')
    appendJsonLineSync(path, { n: 1 })
    appendFileSync(path, '{"n":')
    expect(readJsonLinesSync(path)).toEqual([{ n: 1 }])
    appendFileSync(path, '\n{"n":3}\n')
    expect(() => readJsonLinesSync(path)).toThrow(StateFileError)
  })

  test('compaction rewrites the log atomically, dropping a torn line', () => {
    const path = join(dir, 'log.jsonl')
    appendJsonLineSync(path, { n: 1 })
    appendJsonLineSync(path, { n: 1, done: true })
    appendFileSync(path, '{"n":2')
    writeJsonLinesAtomicSync(path, [{ n: 1, done: true }])
    appendJsonLineSync(path, { n: 2 })
    expect(readJsonLinesSync(path)).toEqual([{ n: 1, done: true }, { n: 2 }])
    expect(readdirSync(dir)).toEqual(['log.jsonl'])
  })
})

describe('removeStaleTempFiles', () => {
  test("removes another process's temp files, at any depth, and nothing else", async () => {
    const dir = await mkdtemp(join(tmpdir(), 'temps-'))
    try {
      await mkdir(join(dir, 'intents'), { recursive: true })
      const files = {
        stale: join(dir, 'intents', '3.json.999999.2.tmp'),
        staleTop: join(dir, 'devnet.json.123456.1.tmp'),
        ours: join(dir, `anvils.json.${process.pid}.9.tmp`),
        whole: join(dir, 'intents', '3.json'),
        other: join(dir, 'notes.tmp'),
      }
      for (const path of Object.values(files)) await writeFile(path, '{}')
      const removed = await removeStaleTempFiles(dir)
      expect(removed.sort()).toEqual(['devnet.json.123456.1.tmp', join('intents', '3.json.999999.2.tmp')])
      expect(
        Object.entries(files)
          .filter(([, path]) => existsSync(path))
          .map(([name]) => name),
      ).toEqual(['ours', 'whole', 'other'])
      expect(await removeStaleTempFiles(join(dir, 'missing'))).toEqual([])
    } finally {
      await rm(dir, { recursive: true, force: true })
    }
  })
})
