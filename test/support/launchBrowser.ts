import { existsSync } from 'node:fs'
import { type Browser, chromium } from 'playwright-core'

/** Flags every launch uses: this machine's network is closed, so no background traffic. */
const QUIET_FLAGS = [
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--disable-quic',
]

/**
 * Launches headless Chromium for the real-browser tests. Order: `CHROMIUM_PATH`, a system
 * Chromium (`/usr/bin/chromium`), else the binary `@sparticuz/chromium` ships inside its npm
 * package, so `npm install && npm test` needs nothing from apt.
 *
 * @example
 * const browser = await launchBrowser()
 * const page = await browser.newPage()
 */
export async function launchBrowser(): Promise<Browser> {
  const system = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium'
  if (existsSync(system))
    return chromium.launch({
      executablePath: system,
      args: ['--no-sandbox', '--disable-gpu', ...QUIET_FLAGS],
    })
  const { default: packaged } = await import('@sparticuz/chromium')
  return chromium.launch({
    executablePath: await packaged.executablePath(),
    // Not `packaged.args`: those are for AWS Lambda (`--single-process` closes the browser with
    // its first page; `--disable-web-security` would hide a page loading foreign assets).
    args: ['--no-sandbox', '--disable-gpu', '--use-angle=swiftshader', ...QUIET_FLAGS],
  })
}
