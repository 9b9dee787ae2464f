import { writeFile as writeFileWhole } from 'node:fs'
import { mkdir } from 'node:fs/promises'
import { join } from 'node:path'
import type { RunResult } from '../runner/types'
import { renderConsole } from './console'
import { renderHtml } from './html'
import { renderJsonBytes } from './json'
import { renderJunit } from './junit'

export { formatProgress, inPackOrder, renderConsole } from './console'
export { renderHtml } from './html'
export { renderJson, renderScenariosAsTheyEnd } from './json'
export { renderJunit } from './junit'

/** The reporters of `--reporter`. */
export const REPORTERS = ['console', 'junit', 'json', 'html'] as const
export type ReporterName = (typeof REPORTERS)[number]

/** The file each file reporter writes into `--out`. */
export const REPORT_FILES = { junit: 'junit.xml', json: 'report.json', html: 'report.html' } as const

/**
 * Writes the chosen reports: console to stdout, the others into `outDir`.
 *
 * @returns The paths written.
 */
export async function writeReports(
  run: RunResult,
  reporters: readonly ReporterName[],
  outDir: string,
  stdout: (text: string) => void = (text) => process.stdout.write(`${text}\n`),
  /** Scenarios of report.json already rendered, as they ended (json.ts, renderScenariosAsTheyEnd). */
  rendered?: ReadonlyMap<object, Buffer>,
): Promise<string[]> {
  if (reporters.includes('console')) stdout(renderConsole(run))
  const files = reporters.filter((r): r is keyof typeof REPORT_FILES => r !== 'console')
  if (files.length > 0) await mkdir(outDir, { recursive: true })
  // report.json as bytes made without its 7 MB text (json.ts); the same bytes as renderJson's.
  const render = {
    junit: renderJunit,
    json: (result: RunResult) => renderJsonBytes(result, rendered),
    html: renderHtml,
  }
  // Each file is written (by the thread pool) while the next is rendered.
  return Promise.all(
    files.map((reporter) => {
      const path = join(outDir, REPORT_FILES[reporter])
      return writeWhole(path, render[reporter](run)).then(() => path)
    }),
  )
}

/**
 * Writes a file as fs/promises writeFile does, but in one write call where it can: writeFile
 * (promises) writes 512 KiB at a time, a round trip to the thread pool for each (14 for a 7 MB
 * report.json); fs.writeFile (callback) writes the whole, again only for what is left.
 */
export function writeWhole(path: string, data: string | Buffer): Promise<void> {
  return new Promise((resolve, reject) =>
    writeFileWhole(path, data, (error) => (error ? reject(error) : resolve())),
  )
}
