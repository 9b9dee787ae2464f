// Own simulator: it toggles faults and reads one intent's fee parts (issue 31).
import type { Browser, Page } from 'playwright-core'
import { parseUnits } from 'viem'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { TypedDataJson } from '../../simulator/eip712/typedData'
import { signAs, tokenAddress } from '../../simulator/settlement/testing/buildSignedIntent'
import { BLANC, createE2eClient } from '../../simulator/settlement/testing/e2eClient'
import { type Simulator, startSimulator } from '../../simulator/startSimulator'
import { launchBrowser } from '../support/launchBrowser'

/**
 * The explorer's views a person meets first: intents found by the intentId a client holds (and
 * by id), each intent's fee parts, a banner while a fault is on, fault descriptions rendered,
 * and a layout that works at 800 px and at a phone's width, with no console error anywhere.
 */
const DEST = 8453
let browser: Browser
let sim: Simulator
let http: ReturnType<typeof createE2eClient>
let page: Page
const consoleErrors: string[] = []
let submitted: { intentId: string; id: string }

beforeAll(async () => {
  ;[browser, sim] = await Promise.all([launchBrowser(), startSimulator({ chainIds: [DEST] })])
  http = createE2eClient(sim)
  // 1 USDC on Base, paid from the account's Compact lock on Base (blanc), signed as given.
  const account = sim.devnet.keys.accounts[1]!.account
  const quote = await http.call(
    'POST',
    '/intents/route',
    {
      destinationChainId: DEST,
      tokenRequests: [{ tokenAddress: tokenAddress(DEST, 'USDC'), amount: parseUnits('1', 6).toString() }],
      account: { address: account.address, accountType: 'EOA' },
    },
    BLANC,
  )
  expect(quote.status, JSON.stringify(quote.body)).toBe(200)
  const route = quote.body.routes.find((r: { fundingMethod: string }) => r.fundingMethod === 'COMPACT')
  const signer = { kind: 'EOA' as const, account }
  const origin = await Promise.all(route.signData.origin.map((td: TypedDataJson) => signAs(signer, td)))
  const destination = await signAs(signer, route.signData.destination)
  const answer = await http.call(
    'POST',
    `/intents/${route.intentId}/submit`,
    { signatures: { origin, destination } },
    BLANC,
  )
  expect(answer.status, JSON.stringify(answer.body)).toBe(201)
  submitted = answer.body
  page = await browser.newPage({ viewport: { width: 1280, height: 800 } })
  page.on('console', (message) => {
    if (message.type() === 'error') consoleErrors.push(message.text())
  })
  page.on('pageerror', (error) => consoleErrors.push(error.message))
  await page.goto(`${sim.baseUrl}/explorer`)
  await page.waitForSelector('#live.on', { timeout: 10_000 })
}, 120_000)

afterAll(async () => {
  await browser?.close()
  await sim?.close()
})

/** Does box `a` overlap box `b`? */
const overlaps = (
  a: { x: number; y: number; width: number; height: number },
  b: { x: number; y: number; width: number; height: number },
) => a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height

describe('the explorer views', () => {
  it('lists a blanc intent by the intentId the client holds, and finds it by intentId and by id', async () => {
    const row = `tr[data-intent-id="${submitted.id}"]`
    await page.waitForSelector(row, { timeout: 10_000 })
    expect(await page.getAttribute(`${row} td:first-child span`, 'title')).toBe(submitted.intentId)
    for (const text of [submitted.intentId, submitted.id]) {
      await page.fill('#intent-search-input', text)
      await page.click('#intent-search button[type="submit"]')
      await expect.poll(() => page.$$eval('#intents-body tr', (rows) => rows.length)).toBe(1)
      await page.waitForSelector(`${row}.selected`)
      await page.waitForSelector('#intent-detail #intent-fees')
    }
    await page.fill('#intent-search-input', '0xnothing')
    await page.click('#intent-search button[type="submit"]')
    await expect.poll(() => page.textContent('#intents-body')).toContain('No intent with the intentId or id')
    await page.click('#intent-search-clear')
    await page.waitForSelector(row)
  }, 30_000)

  it("shows the intent's fee parts: a 1 USDC Base→Base intent costs cents, gas included", async () => {
    await page.click(`tr[data-intent-id="${submitted.id}"] td:first-child`)
    await page.waitForSelector('#intent-fees')
    const fees = await page.$$eval('#intent-fees tr', (rows) =>
      Object.fromEntries(
        rows.map((r) => [r.getAttribute('data-fee') ?? 'total', r.querySelector('td')?.textContent]),
      ),
    )
    const dollars = (text: string | null | undefined) => Number(text?.replace('$', ''))
    expect(dollars(fees.gas)).toBeGreaterThan(0)
    expect(dollars(fees.total)).toBeGreaterThan(0)
    expect(dollars(fees.total)).toBeLessThan(0.05)
    expect(await page.textContent('#intent-detail')).toMatch(/Base 0\.01 gwei/)
  })

  it('at 800 px the detail panel covers neither the status nor the fill column', async () => {
    await page.setViewportSize({ width: 800, height: 900 })
    const row = `tr[data-intent-id="${submitted.id}"]`
    await page.click(`${row} td:first-child`)
    await page.waitForSelector('#intent-fees')
    const detail = await page.locator('#intent-detail').boundingBox()
    for (const cell of ['td.status', 'td.fill-tx']) {
      const box = await page.locator(`${row} ${cell}`).boundingBox()
      expect(box && detail && !overlaps(box, detail), cell).toBe(true)
    }
    await page.click('#close-detail')
    expect(await page.locator('#intent-detail').isVisible()).toBe(false)
  })

  it('at a phone width (390 px) the page does not overflow sideways and every tab is reachable', async () => {
    await page.setViewportSize({ width: 390, height: 844 })
    expect(await page.evaluate('document.documentElement.scrollWidth')).toBeLessThanOrEqual(390)
    for (const tab of ['intents', 'quotes', 'deposits', 'chains', 'controls']) {
      const button = page.locator(`#tabs button[data-tab="${tab}"]`)
      const box = await button.boundingBox()
      expect(box && box.x >= 0 && box.x + box.width <= 390, tab).toBe(true)
    }
    await page.setViewportSize({ width: 1280, height: 800 })
  })

  it('shows a banner while any fault is on, and renders fault descriptions (no raw backticks)', async () => {
    expect(await page.locator('#fault-banner').isVisible()).toBe(false)
    await http.call('POST', '/_devnet/faults', { enable: ['errors.no-trace-id'] })
    try {
      await page.waitForSelector('#fault-banner:not([hidden])', { timeout: 5_000 })
      expect(await page.textContent('#fault-banner')).toContain('errors.no-trace-id')
      await page.click('#tabs button[data-tab="controls"]')
      await page.waitForSelector('#faults-body .fault-text code')
      expect(
        await page.$$eval('#faults-body .fault-text', (cells) =>
          cells.some((c) => c.textContent?.includes('`')),
        ),
      ).toBe(false)
    } finally {
      await http.call('POST', '/_devnet/faults', { disable: ['errors.no-trace-id'] })
    }
    await page.waitForSelector('#fault-banner[hidden]', { state: 'attached', timeout: 5_000 })
  })

  it('logged no console or CSP error', () => {
    expect(consoleErrors).toEqual([])
  })
})
