// Own simulator, not the shared devnet: it asserts an empty intent list and sets the deposit processor's webhook, service state a revert does not roll back.
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { join } from 'node:path'
import type { Browser, Page } from 'playwright-core'
import { keccak256, parseUnits, toHex } from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { compactTypedData, type TypedDataJson } from '../../simulator/eip712/typedData'
import { DevnetEvent } from '../../simulator/events/schemas'
import { signAs, tokenAddress } from '../../simulator/settlement/testing/buildSignedIntent'
import { ALPS, BLANC, createE2eClient } from '../../simulator/settlement/testing/e2eClient'
import { type Simulator, startSimulator } from '../../simulator/startSimulator'
import { launchBrowser } from '../support/launchBrowser'

/**
 * The devnet explorer in a real browser, against a real simulator: an intent a fetch client
 * submits shows COMPLETED with its fill transaction within a second of the status endpoint; a
 * failed one shows its reason; a webhook's delivery attempts show, and resend adds one.
 * `EXPLORER_SCREENSHOTS=1` also writes the README's screenshots (docs/images/explorer-*.png).
 */
const DEST = 8453
const usdc = (n: number) => parseUnits(String(n), 6).toString()
const screenshots = process.env.EXPLORER_SCREENSHOTS === '1'
const imageDir = join(import.meta.dirname, '..', '..', 'docs', 'images')

let browser: Browser
let sim: Simulator
let http: ReturnType<typeof createE2eClient>
let page: Page
const foreign: string[] = []
const consoleErrors: string[] = []
let receiver: Server
let receiverUrl: string
const received: { signature: string | undefined }[] = []

beforeAll(async () => {
  ;[browser, sim] = await Promise.all([launchBrowser(), startSimulator({ port: 0, chainIds: [10, DEST] })])
  http = createE2eClient(sim)
  // A webhook receiver that fails the first delivery of each event (500) and takes the next.
  const seen = new Set<string>()
  receiver = createServer((request, response) => {
    let body = ''
    request.on('data', (chunk) => {
      body += chunk
    })
    request.on('end', () => {
      const { eventId } = JSON.parse(body)
      received.push({ signature: request.headers['x-webhook-signature'] as string | undefined })
      response.statusCode = seen.has(eventId) ? 200 : 500
      seen.add(eventId)
      response.end()
    })
  })
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve))
  receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`
  page = await browser.newPage({ viewport: { width: 1280, height: 800 } })
  page.on('request', (request) => {
    if (!request.url().startsWith(sim.baseUrl) && !request.url().startsWith('data:'))
      foreign.push(request.url())
  })
  page.on('console', (message) => {
    if (message.type() === 'error') consoleErrors.push(message.text())
  })
  page.on('pageerror', (error) => consoleErrors.push(error.message))
}, 120_000)

afterAll(async () => {
  await browser?.close()
  await sim?.close()
  await new Promise((resolve) => receiver?.close(resolve))
})

/** Quotes 5 USDC on Base for `account` from its Compact lock on OP, signs signData as given, submits (blanc). */
async function submitBlanc(account: ReturnType<typeof privateKeyToAccount>) {
  const quote = await http.call(
    'POST',
    '/intents/route',
    {
      destinationChainId: DEST,
      tokenRequests: [{ tokenAddress: tokenAddress(DEST, 'USDC'), amount: usdc(5) }],
      account: { address: account.address, accountType: 'EOA' },
      accountAccessList: { chainIds: [10] },
    },
    BLANC,
  )
  expect(quote.status, JSON.stringify(quote.body)).toBe(200)
  const route = quote.body.routes.find((r: { fundingMethod: string }) => r.fundingMethod === 'COMPACT')
  const signer = { kind: 'EOA' as const, account }
  const origin = await Promise.all(route.signData.origin.map((td: TypedDataJson) => signAs(signer, td)))
  const destination = await signAs(signer, route.signData.destination)
  const submitted = await http.call(
    'POST',
    `/intents/${route.intentId}/submit`,
    { signatures: { origin, destination } },
    BLANC,
  )
  expect(submitted.status, JSON.stringify(submitted.body)).toBe(201)
  return submitted.body as { intentId: string; id: string }
}

/** Polls the status endpoint as an integrator would, and notes when it first says a final status. */
async function pollUntilFinal(path: string, version: string) {
  for (let i = 0; i < 3_000; i++) {
    const { body } = await http.call('GET', path, undefined, version)
    if (['COMPLETED', 'FAILED', 'EXPIRED'].includes(body.status)) return { body, at: Date.now() }
    await new Promise((resolve) => setTimeout(resolve, 10))
  }
  throw new Error(`${path} never reached a final status`)
}

describe('the devnet explorer, in a real browser', () => {
  it('loads from local assets only, with the default key filled in on a loopback devnet', async () => {
    await page.goto(`${sim.baseUrl}/explorer`)
    await page.waitForSelector('#live.on', { timeout: 10_000 })
    expect(await page.evaluate("sessionStorage.getItem('intent-devnet.apiKey')")).toBe(sim.apiKey)
    expect(await page.locator('#key-dialog').getAttribute('open')).toBeNull()
    expect(await page.textContent('#intents-body')).toContain('No intents yet')
  }, 30_000)

  it('shows an intent a fetch client submits as COMPLETED with its fill transaction within 1 s of the status endpoint, and its timeline', async () => {
    const account = sim.devnet.keys.accounts[1]!.account
    const { intentId, id } = await submitBlanc(account)
    const { body, at } = await pollUntilFinal(`/intents/${intentId}`, BLANC)
    expect(body.status).toBe('COMPLETED')
    const fill = body.operations
      .flatMap((o: { items: { type: string; txHash: string }[] }) => o.items)
      .find((item: { type: string }) => item.type === 'FILL')
    const row = `tr[data-intent-id="${id}"]`
    await page.waitForSelector(`${row} td.status .badge.COMPLETED`, { timeout: 5_000 })
    await page.waitForSelector(`${row} td.fill-tx a[data-hash="${fill.txHash}"]`, { timeout: 5_000 })
    const lag = Date.now() - at
    expect(lag, `the page showed COMPLETED ${lag} ms after the status endpoint`).toBeLessThan(1_000)

    await page.click(`${row} td:first-child`)
    await page.waitForSelector('#timeline li[data-step="completed"]')
    const steps = await page.$$eval('#timeline li', (items) =>
      items.map((li) => ({ step: li.getAttribute('data-step'), text: li.textContent ?? '' })),
    )
    expect(steps.map((s) => s.step)).toEqual(['quoted', 'submitted', 'fill', 'claim', 'completed'])
    const fillStep = steps.find((s) => s.step === 'fill')!
    expect(fillStep.text).toMatch(/gas \d[\d,]*/)
    expect(fillStep.text).toContain('Base')
    if (screenshots) await page.screenshot({ path: join(imageDir, 'explorer-intents.png') })

    // The fill transaction's call, decoded by the filler's ABI.
    await page.click(`#timeline li[data-step="fill"] a.tx`)
    await page.waitForSelector('#tx-view h3')
    expect(await page.textContent('#tx-view h3')).toMatch(/^filler\.\w+\(…\)$/)
    expect(await page.textContent('#tx-view')).toContain(fill.txHash)
    expect(await page.inputValue('#tx-chain')).toBe(String(DEST))
    await page.waitForSelector('#chains-cards .card[data-chain-id="8453"]')
    if (screenshots) await page.screenshot({ path: join(imageDir, 'explorer-chains.png') })
  }, 60_000)

  it('shows a failed intent with its reason', async () => {
    await page.click('#tabs button[data-tab="intents"]')
    // alps, accepted unchecked (fault), whose origin signature is not the sponsor's: settlement fails.
    const account = sim.devnet.keys.accounts[2]!.account
    const route = await http.call(
      'POST',
      '/intents/route',
      {
        destinationChainId: DEST,
        tokenRequests: [{ tokenAddress: tokenAddress(DEST, 'USDC'), amount: usdc(3) }],
        account: { address: account.address, accountType: 'EOA' },
        accountAccessList: { chainIds: [10] },
      },
      ALPS,
    )
    expect(route.status, JSON.stringify(route.body)).toBe(200)
    const intentOp = route.body.intentOp
    const impostor = privateKeyToAccount(keccak256(toHex('explorer impostor')))
    const forged = await signAs({ kind: 'EOA', account: impostor }, compactTypedData(intentOp))
    await http.call('POST', '/_devnet/faults', { enable: ['intents.accept-tampered'] })
    try {
      const submitted = await http.call('POST', '/intent-operations', {
        signedIntentOp: { ...intentOp, originSignatures: [forged], destinationSignature: forged },
      })
      expect(submitted.status, JSON.stringify(submitted.body)).toBe(201)
      const { id } = submitted.body.result
      const { body } = await pollUntilFinal(`/intent-operation/${id}`, ALPS)
      expect(body.status).toBe('FAILED')
      expect(body.failureReason).toBeTruthy()
      const row = `tr[data-intent-id="${id}"]`
      await page.waitForSelector(`${row} td.status .badge.FAILED`, { timeout: 5_000 })
      expect(await page.textContent(`${row} td.status .reason`)).toBe(body.failureReason)
      await page.click(`${row} td:first-child`)
      await page.waitForSelector('#timeline li[data-step="failed"]')
      expect(await page.textContent('#timeline li[data-step="failed"] .reason')).toBe(body.failureReason)
    } finally {
      await http.call('POST', '/_devnet/faults', { disable: ['intents.accept-tampered'] })
    }
  }, 60_000)

  it("shows a webhook event's delivery attempts (answer codes, signed), and resend adds one", async () => {
    const setup = await http.call('POST', '/deposit-processor/setup', {
      params: { webhookUrl: receiverUrl, webhookSecret: 'explorer-secret' },
    })
    expect(setup.status, JSON.stringify(setup.body)).toBe(200)
    await page.click('#tabs button[data-tab="deposits"]')
    const test = await http.call('POST', '/deposit-processor/webhooks/test')
    expect(test.status).toBe(202)
    const row = `#webhooks-body tr[data-event-id="${test.body.eventId}"]`
    // First attempt answered 500, the retry 200: both show, live (no reload).
    await page.waitForSelector(`${row} .badge.delivered`, { timeout: 10_000 })
    expect(await page.textContent(`${row} .attempt-count`)).toBe('2')
    expect(await page.$$eval(`${row} .attempts b.code`, (codes) => codes.map((c) => c.textContent))).toEqual([
      '500',
      '200',
    ])
    expect(await page.textContent(`${row} td.signed`)).toBe('signed')
    expect(received.every((r) => r.signature?.startsWith('sha256='))).toBe(true)
    if (screenshots) await page.screenshot({ path: join(imageDir, 'explorer-webhooks.png') })

    await page.click(`${row} button.resend`)
    await expect.poll(() => page.textContent(`${row} .attempt-count`), { timeout: 10_000 }).toBe('3')
  }, 60_000)

  it('drives the control API: advances the clock, toggles a fault, snapshots', async () => {
    await page.click('#tabs button[data-tab="controls"]')
    await page.waitForSelector('#faults-body input.fault')
    const before = (await http.call('GET', '/_devnet/manifest')).body.clock.now
    await page.fill('#clock-seconds', '120')
    await page.click('#clock-form button[type="submit"]')
    await expect.poll(() => page.textContent('#control-log')).toContain('clock advanced')
    expect((await http.call('GET', '/_devnet/manifest')).body.clock.now).toBeGreaterThanOrEqual(before + 120)
    await page.check('input.fault[data-fault="errors.no-trace-id"]')
    await expect.poll(() => page.textContent('#control-log')).toContain('errors.no-trace-id')
    expect((await http.call('GET', '/_devnet/faults')).body.enabled).toEqual(['errors.no-trace-id'])
    await page.uncheck('input.fault[data-fault="errors.no-trace-id"]')
    await page.click('#snapshot')
    await expect.poll(() => page.textContent('#control-log')).toContain('snapshot')
    if (screenshots) await page.screenshot({ path: join(imageDir, 'explorer-controls.png') })
    await expect.poll(async () => (await http.call('GET', '/_devnet/faults')).body.enabled).toEqual([])
  }, 30_000)

  it('asks for the key when there is none, keeps it in session storage, and sends it on every data call', async () => {
    const fresh = await browser.newPage({ viewport: { width: 1280, height: 800 } })
    const keys = new Set<string | undefined>()
    fresh.on('request', (request) => {
      if (new URL(request.url()).pathname.startsWith('/_devnet/')) keys.add(request.headers()['x-api-key'])
    })
    // As a devnet whose key is not the default would serve it: no key filled in.
    await fresh.route(`${sim.baseUrl}/explorer`, async (route) => {
      const response = await route.fetch()
      const html = (await response.text()).replace(/content="devnet-key"/, 'content=""')
      await route.fulfill({ response, body: html })
    })
    await fresh.goto(`${sim.baseUrl}/explorer`)
    await fresh.waitForSelector('#key-dialog[open]')
    await fresh.fill('#key-input', 'wrong-key')
    await fresh.click('#key-form button[type="submit"]')
    await fresh.waitForSelector('#key-dialog[open] #key-error:not(:empty)')
    await fresh.fill('#key-input', sim.apiKey)
    await fresh.click('#key-form button[type="submit"]')
    await fresh.waitForSelector('#live.on')
    expect(await fresh.evaluate("sessionStorage.getItem('intent-devnet.apiKey')")).toBe(sim.apiKey)
    await fresh.waitForSelector('#intents-body tr[data-intent-id]')
    expect([...keys].sort()).toEqual([sim.apiKey, 'wrong-key'].sort())
    await fresh.close()
  }, 30_000)

  it('loaded nothing from anywhere but the devnet, and logged no console or CSP error', () => {
    expect(foreign).toEqual([])
    // A refused key answers 401 on purpose above; the browser logs that load as an error.
    expect(consoleErrors.filter((text) => !/status of 401/.test(text))).toEqual([])
  })
})

describe('GET /_devnet/events (server-sent events, for scripts too)', () => {
  it('needs the key, and streams one event per lifecycle step, each valid against the DevnetEvent schema', async () => {
    const unkeyed = await fetch(`${sim.baseUrl}/_devnet/events`)
    expect(unkeyed.status).toBe(401)
    const controller = new AbortController()
    const response = await fetch(`${sim.baseUrl}/_devnet/events?types=intent`, {
      headers: { 'x-api-key': sim.apiKey },
      signal: controller.signal,
    })
    expect(response.headers.get('content-type')).toMatch(/^text\/event-stream/)
    const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader()
    const events: DevnetEvent[] = []
    const { id } = await submitBlanc(sim.devnet.keys.accounts[3]!.account)
    let buffer = ''
    while (!events.some((e) => e.type === 'intent' && e.id === id && e.step === 'claimMined')) {
      const { value, done } = await reader.read()
      if (done) break
      buffer += value
      for (let end = buffer.indexOf('\n\n'); end >= 0; end = buffer.indexOf('\n\n')) {
        const data = buffer
          .slice(0, end)
          .split('\n')
          .find((line) => line.startsWith('data: '))
        buffer = buffer.slice(end + 2)
        if (data) events.push(DevnetEvent.parse(JSON.parse(data.slice(6))))
      }
    }
    controller.abort()
    const mine = events.filter(
      (e): e is Extract<DevnetEvent, { type: 'intent' }> => e.type === 'intent' && e.id === id,
    )
    expect(mine.map((e) => e.step)).toEqual(['submitted', 'fillSent', 'fillMined', 'claimSent', 'claimMined'])
    expect(mine.at(-1)?.status).toBe('COMPLETED')
    expect(mine.find((e) => e.step === 'fillMined')?.transactionHash).toMatch(/^0x[0-9a-f]{64}$/)
    expect(events.every((e) => e.type === 'intent')).toBe(true)
  }, 60_000)
})
