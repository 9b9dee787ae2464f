/**
 * Explorer bench (issue 19): with N intents in the store (default 10,000, inserted straight into
 * the intent store, each taken to COMPLETED through the lifecycle), measures (1) the list endpoint
 * `GET /_devnet/explorer/intents` (first page, a deep page, one intent's detail) and (2) the page
 * in Chromium: load to 50 rows rendered, and a new intent's row appearing live (SSE → refetch →
 * render). Each is measured side by side with a baseline of 100 intents in the same run, and the
 * list endpoint beside `GET /health` (the cost of any keyed request).
 *
 * Run: npx tsx scripts/bench/explorer.ts [--intents 10000] [--requests 300]
 */
import { keccak256, toHex } from 'viem'
import { addresses, tokensByChain } from '../../contracts/addresses'
import { startDevnet } from '../../simulator/devnet/startDevnet'
import { withHttpFaults } from '../../simulator/faultInjection/http/httpFaults'
import { createFaults } from '../../simulator/faults/faults'
import { startService } from '../../simulator/http/startService'
import type { IntentStore } from '../../simulator/intents/intentStore'
import type { SignedIntent } from '../../simulator/intents/types'
import { createServices } from '../../simulator/startSimulator'
import { launchBrowser } from '../../test/support/launchBrowser'

const arg = (name: string, fallback: number) => {
  const index = process.argv.indexOf(`--${name}`)
  return index === -1 ? fallback : Number(process.argv[index + 1])
}
const INTENTS = arg('intents', 10_000)
const REQUESTS = arg('requests', 300)
const BASELINE = 100

const quantile = (values: number[], q: number) => {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)]!
}
const fmt = (n: number) => n.toFixed(2)

const usdc = (chainId: number) => tokensByChain[chainId]!.find((t) => t.symbol === 'USDC')!.address
const lockId = (token: string) => (BigInt(token) | (1n << 255n)).toString()
let counter = 0

/** Adds `count` intents (OP → Base, 5 USDC) and takes each through fill and claim to COMPLETED. */
async function addIntents(store: IntentStore<SignedIntent>, count: number, now: number) {
  for (let i = 0; i < count; i++) {
    const n = ++counter
    const sponsor = `0x${n.toString(16).padStart(40, '0')}` as const
    const mandate = {
      recipient: sponsor,
      tokenOut: [[lockId(usdc(8453)), '5000000']] as [string, string][],
      destinationChainId: '8453',
      fillDeadline: String(now + 600),
      minGas: '0',
      preClaimOps: { vt: `0x${'0'.repeat(64)}`, ops: [] },
      destinationOps: { vt: `0x${'0'.repeat(64)}`, ops: [] },
      qualifier: {
        settlementContext: { settlementLayer: 'INTENT_EXECUTOR', fundingMethod: 'COMPACT' },
        encodedVal: '0x',
      },
    }
    const payload = {
      intentOp: {
        sponsor,
        nonce: String(n),
        expires: String(now + 4200),
        targetExecutionNonce: String(n + 1),
        elements: [
          {
            arbiter: addresses.arbiter,
            chainId: '10',
            idsAndAmounts: [[lockId(usdc(10)), '5010000']],
            mandate,
          },
        ],
        serverSignature: '0x',
        signedMetadata: { tokenPrices: {}, gasPrices: {}, account: { address: sponsor, accountType: 'EOA' } },
      },
      originSignatures: ['0x'],
      destinationSignature: '0x',
      setupOps: [],
    } as unknown as SignedIntent
    const record = await store.create({
      intentId: null,
      sponsor,
      recipient: sponsor,
      destinationChainId: 8453,
      fillDeadline: now + 600,
      dedupeKey: `bench:${n}`,
      payload,
      originChainIds: [10],
    })
    const hash = (what: string) => keccak256(toHex(`${what}${n}`))
    await store.apply(record.id, { type: 'fillMined', txHash: hash('fill'), timestamp: now })
    await store.apply(record.id, { type: 'claimMined', chainId: 10, txHash: hash('claim'), timestamp: now })
  }
}

async function timeRequests(url: string, apiKey: string, count: number) {
  const times: number[] = []
  for (let i = 0; i < count; i++) {
    const started = performance.now()
    const response = await fetch(url, { headers: { 'x-api-key': apiKey } })
    await response.arrayBuffer()
    if (!response.ok) throw new Error(`${url} answered ${response.status}`)
    times.push(performance.now() - started)
  }
  return { p50: quantile(times, 0.5), p99: quantile(times, 0.99) }
}

async function main() {
  const devnet = await startDevnet({ chainIds: [10, 8453] })
  const faults = createFaults()
  const domain = await createServices({ devnet, faults })
  const service = await startService({
    port: 0,
    services: domain.services,
    plugins: [withHttpFaults(faults)],
  })
  devnet.setServiceInfo({
    baseUrl: service.baseUrl,
    apiKey: service.apiKey,
    versions: ['2026-01.alps', '2026-04.blanc'],
    defaultVersion: '2026-01.alps',
    strictVersion: false,
    quoteTtlSeconds: 300,
  })
  const browser = await launchBrowser()
  const { baseUrl, apiKey } = service
  const store = domain.intentStore
  const rows: Record<string, Record<number, { p50: number; p99: number }>> = {}
  const render: Record<number, { load: number; live: number }> = {}

  async function measure(size: number) {
    const list = `${baseUrl}/_devnet/explorer/intents?limit=50`
    const first = (await (await fetch(list, { headers: { 'x-api-key': apiKey } })).json()) as {
      intents: { id: string }[]
    }
    const middle = (await (
      await fetch(`${baseUrl}/_devnet/explorer/intents?limit=${Math.floor(size / 2)}`, {
        headers: { 'x-api-key': apiKey },
      })
    ).json()) as { nextCursor: string }
    const deep = `${list}&cursor=${encodeURIComponent(middle.nextCursor)}`
    const detail = `${baseUrl}/_devnet/explorer/intents/${first.intents[0]!.id}`
    rows['GET /health'] = {
      ...rows['GET /health'],
      [size]: await timeRequests(`${baseUrl}/health`, apiKey, REQUESTS),
    }
    rows['intents, first page (50)'] = {
      ...rows['intents, first page (50)'],
      [size]: await timeRequests(list, apiKey, REQUESTS),
    }
    rows['intents, page in the middle (50)'] = {
      ...rows['intents, page in the middle (50)'],
      [size]: await timeRequests(deep, apiKey, REQUESTS),
    }
    rows['one intent with timeline (gas from receipts)'] = {
      ...rows['one intent with timeline (gas from receipts)'],
      [size]: await timeRequests(detail, apiKey, Math.min(REQUESTS, 100)),
    }
    // What a live update costs: one intent added, then the first page.
    const afterAdd: number[] = []
    for (let i = 0; i < 50; i++) {
      await addIntents(store, 1, devnet.now())
      afterAdd.push((await timeRequests(list, apiKey, 1)).p50)
    }
    rows['first page right after a new intent'] = {
      ...rows['first page right after a new intent'],
      [size]: { p50: quantile(afterAdd, 0.5), p99: quantile(afterAdd, 0.99) },
    }

    const page = await browser.newPage({ viewport: { width: 1280, height: 800 } })
    const loads: number[] = []
    const lives: number[] = []
    for (let run = 0; run < 5; run++) {
      const started = performance.now()
      await page.goto(`${baseUrl}/explorer`)
      await page.locator('#intents-body tr[data-intent-id]').nth(49).waitFor()
      loads.push(performance.now() - started)
      await page.waitForSelector('#live.on')
      const before = counter
      const added = performance.now()
      await addIntents(store, 1, devnet.now())
      const id = store.all().find((r) => r.dedupeKey === `bench:${before + 1}`)!.id
      await page.waitForSelector(`tr[data-intent-id="${id}"] .badge.COMPLETED`)
      lives.push(performance.now() - added)
    }
    await page.close()
    render[size] = { load: quantile(loads, 0.5), live: quantile(lives, 0.5) }
  }

  try {
    await addIntents(store, BASELINE, devnet.now())
    // Warm-up (JIT, connections), so the baseline is not measured cold.
    await timeRequests(`${baseUrl}/_devnet/explorer/intents?limit=50`, apiKey, REQUESTS)
    await measure(BASELINE)
    const started = performance.now()
    await addIntents(store, INTENTS - store.all().length, devnet.now())
    const insertMs = performance.now() - started
    await measure(INTENTS)
    const n = store.all().length
    console.log(
      `\nExplorer with ${n} intents vs ${BASELINE} (same run, same devnet; ${REQUESTS} sequential requests each)`,
    )
    console.log(
      `(inserted and completed ${INTENTS - BASELINE} intents through the store in ${(insertMs / 1000).toFixed(1)} s)\n`,
    )
    console.log(
      `| measure | ${BASELINE} intents p50 / p99 (ms) | ${INTENTS} intents p50 / p99 (ms) | ratio (p50) |`,
    )
    console.log('|---|---|---|---|')
    for (const [name, by] of Object.entries(rows)) {
      const a = by[BASELINE]!
      const b = by[INTENTS]!
      console.log(
        `| ${name} | ${fmt(a.p50)} / ${fmt(a.p99)} | ${fmt(b.p50)} / ${fmt(b.p99)} | ${(b.p50 / a.p50).toFixed(2)} |`,
      )
    }
    const a = render[BASELINE]!
    const b = render[INTENTS]!
    console.log(
      `| page load → 50 rows rendered (Chromium, median of 5) | ${fmt(a.load)} | ${fmt(b.load)} | ${(b.load / a.load).toFixed(2)} |`,
    )
    console.log(
      `| new intent → its row shown live (SSE, median of 5) | ${fmt(a.live)} | ${fmt(b.live)} | ${(b.live / a.live).toFixed(2)} |`,
    )
  } finally {
    await browser.close()
    await service.close()
    await domain.stop()
    await devnet.stop()
  }
}

await main()
