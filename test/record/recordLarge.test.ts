import { spawn } from 'node:child_process'
import { existsSync } from 'node:fs'
import { mkdtemp, readFile, rm, stat } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { parseScenario } from '../../conformance/scenario/loadScenarios'

/**
 * A long session: 20,000 exchanges through the recording proxy against a plain HTTP server,
 * written as a scenario, in a process whose heap is capped at 96 MB (test/record/longSession.ts).
 * The recorder appends each exchange to its journal on disk instead of keeping it, and the writer
 * reads the journal back and writes one step at a time, so the heap stays bounded however long
 * the session; held in memory (as before issue 16's follow-up), 16,000 quotes ran out of memory.
 */
const EXCHANGES = 20_000
const HEAP_LIMIT_MB = 96
const root = join(import.meta.dirname, '../..')
let dir: string

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'record-large-'))
})

afterAll(async () => {
  if (dir) await rm(dir, { recursive: true, force: true })
})

const runLongSession = (file: string) =>
  new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => {
    const child = spawn(
      process.execPath,
      [
        `--max-old-space-size=${HEAP_LIMIT_MB}`,
        '--import',
        'tsx',
        'test/record/longSession.ts',
        file,
        String(EXCHANGES),
      ],
      { cwd: root },
    )
    let stdout = ''
    let stderr = ''
    child.stdout.on('data', (data) => (stdout += data))
    child.stderr.on('data', (data) => (stderr += data))
    child.on('close', (code) => resolve({ code, stdout, stderr }))
  })

describe('a long recording', () => {
  it(`records ${EXCHANGES.toLocaleString('en')} exchanges and writes a scenario that loads, with the heap capped at ${HEAP_LIMIT_MB} MB`, async () => {
    const file = join(dir, 'long.yaml')
    const run = await runLongSession(file)
    expect(run.code, run.stderr).toBe(0)
    const result = JSON.parse(run.stdout.trim().split('\n').at(-1)!) as {
      sent: number
      wrong: number
      recorded: number
      steps: number
      recordSeconds: number
      writeSeconds: number
      peakHeapMB: number
      maxRssMB: number
    }
    console.log(
      `${result.recorded} exchanges recorded in ${result.recordSeconds.toFixed(1)} s, written in ${result.writeSeconds.toFixed(1)} s ` +
        `(${((await stat(file)).size / 1e6).toFixed(1)} MB); peak heap ${result.peakHeapMB.toFixed(0)} MB, peak RSS ${result.maxRssMB.toFixed(0)} MB`,
    )
    expect(result.wrong).toBe(0)
    expect(result.recorded).toBe(result.sent)
    expect(result.steps).toBe(result.sent)
    expect(result.sent).toBeGreaterThanOrEqual(EXCHANGES)
    expect(result.peakHeapMB).toBeLessThan(HEAP_LIMIT_MB)
    // Written whole, then the journal removed.
    expect(existsSync(`${file}.journal`)).toBe(false)
    expect(existsSync(`${file}.partial`)).toBe(false)

    const text = await readFile(file, 'utf8')
    expect(text).not.toContain('long-session-key')
    const loaded = parseScenario(text, file)
    expect(loaded.problems).toEqual([])
    const steps = loaded.scenario!.steps as { http?: { path: string }; capture?: Record<string, string> }[]
    expect(steps).toHaveLength(result.sent)
    // Every read refers to the id its create answered: a capture on the create, a reference in the path.
    const reads = steps.filter((s) => s.http?.path.startsWith('/items/'))
    expect(reads).toHaveLength(result.sent / 2)
    expect(reads.every((s) => /^\/items\/\$\{\w+\}$/.test(s.http!.path))).toBe(true)
    expect(steps.filter((s) => s.capture !== undefined)).toHaveLength(result.sent / 2)
  }, 300_000)
})
