import { execFile } from 'node:child_process'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { promisify } from 'node:util'
import type { Browser } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type Simulator, startSimulator } from '../../simulator/startSimulator'
import { launchBrowser } from '../support/launchBrowser'

describe('pages a person reads, in a real browser', () => {
  let browser: Browser
  let service: Simulator
  let dir: string

  beforeAll(async () => {
    browser = await launchBrowser()
    service = await startSimulator({ port: 0, chainIds: [10, 8453] })
    dir = await mkdtemp(join(tmpdir(), 'pages-'))
  })
  afterAll(async () => {
    await browser?.close()
    await service?.close()
    if (dir) await rm(dir, { recursive: true, force: true })
  })

  it('/docs renders the API reference from local assets, every spec endpoint listed, with no console error', async () => {
    const page = await browser.newPage()
    const errors: string[] = []
    page.on('console', (message) => {
      if (message.type() === 'error' || message.type() === 'warning') errors.push(message.text())
    })
    page.on('pageerror', (error) => errors.push(error.message))
    const foreign: string[] = []
    page.on('request', (request) => {
      if (!request.url().startsWith(service.baseUrl)) foreign.push(request.url())
    })
    await page.goto(`${service.baseUrl}/docs`)
    await page.waitForSelector('.opblock', { timeout: 30_000 })
    const paths = await page.$$eval('.opblock-summary-path', (nodes) =>
      nodes.map((n) => n.textContent?.replace(/\u200b/g, '')),
    )
    for (const path of [
      '/intents/route',
      '/intent-operations',
      '/withdrawals',
      '/batch-withdrawals',
      '/deposit-processor/setup',
    ])
      expect(paths).toContain(path)
    expect(foreign).toEqual([])
    // Open an operation (Swagger UI styles it inline as it expands), then look at the console.
    await page.click('.opblock-summary')
    await page.waitForTimeout(500)
    expect(errors).toEqual([])
    await page.close()
  })

  it('the conformance HTML report is one self-contained page that shows the results', async () => {
    const out = join(dir, 'report')
    // Asynchronous: the simulator answering the CLI runs in this very process.
    await promisify(execFile)(
      process.execPath,
      [
        join(__dirname, '..', '..', 'bin', 'intent-devnet.js'),
        'conformance',
        '--target',
        service.baseUrl,
        '--api-key',
        service.apiKey,
        '--pack',
        'errors',
        'limits',
        '--reporter',
        'html',
        '--out',
        out,
      ],
      { encoding: 'utf8', timeout: 120_000 },
    )
    const page = await browser.newPage()
    const requests: string[] = []
    page.on('request', (request) => requests.push(request.url()))
    const file = pathToFileURL(join(out, 'report.html')).href
    await page.goto(file)
    const text = await page.innerText('body')
    expect(text).toMatch(/passed/i)
    expect(text).toContain('Limits')
    expect(requests).toEqual([file])
    await page.screenshot({ path: join(dir, 'report.png') })
    await page.close()
  })
})
