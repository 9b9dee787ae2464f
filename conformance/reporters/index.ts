import { mkdir, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import type { RunResult } from '../runner/types'
import { renderConsole } from './console'
import { renderHtml } from './html'
import { renderJson } from './json'
import { renderJunit } from './junit'

export { formatProgress, inPackOrder, renderConsole } from './console'
export { renderHtml } from './html'
export { renderJson } from './json'
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
): Promise<string[]> {
  const written: string[] = []
  if (reporters.includes('console')) stdout(renderConsole(run))
  const files = reporters.filter((r): r is keyof typeof REPORT_FILES => r !== 'console')
  if (files.length > 0) await mkdir(outDir, { recursive: true })
  const render = { junit: renderJunit, json: renderJson, html: renderHtml }
  for (const reporter of files) {
    const path = join(outDir, REPORT_FILES[reporter])
    await writeFile(path, render[reporter](run))
    written.push(path)
  }
  return written
}
