/**
 * Webhook bench: (1) time from a deposit's block to its webhook at a local receiver, on real
 * Anvil chains; (2) events delivered per second by the outbox, beside a bare loop of signed
 * POSTs to the same receiver in the same run.
 *
 * Run: npx tsx scripts/bench/webhooks.ts [--deposits 40] [--events 2000]
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { startWebhookInbox } from '../../conformance/runner/webhookReceiver'
import { createDepositProcessor } from '../../simulator/deposits/createDepositProcessor'
import { signWebhookBody } from '../../simulator/deposits/signWebhook'
import { startTestChains } from '../../simulator/deposits/testing/startTestChains'
import { createWebhookOutbox } from '../../simulator/deposits/webhookOutbox'
import { createEventBus } from '../../simulator/events/eventBus'
import { createPriceTable } from '../../simulator/prices/prices'
import { createSystemClock } from '../../simulator/util/clock'

const arg = (name: string, fallback: number) => {
  const index = process.argv.indexOf(`--${name}`)
  return index === -1 ? fallback : Number(process.argv[index + 1])
}
const DEPOSITS = arg('deposits', 40)
const EVENTS = arg('events', 2000)
const POLL_MS = 100

const quantile = (values: number[], q: number) => {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)]!
}
const fmt = (n: number) => n.toFixed(1)

async function latency() {
  const chains = await startTestChains([1, 8453])
  const receiver = await startWebhookInbox()
  const processor = createDepositProcessor({
    chains: chains.chains,
    prices: createPriceTable(),
    clock: createSystemClock(),
    events: createEventBus(),
    pollIntervalMs: POLL_MS,
  })
  try {
    await processor.start()
    const user = chains.keys.accounts[1]!
    const account = chains.keys.accounts[2]!.address
    const usdc = chains.token(1, 'USDC').address
    await chains.mint(1, usdc, user.address, 10n ** 12n)
    await processor.setup('bench', { webhookUrl: receiver.url, webhookSecret: 'bench-secret' })
    await processor.register('bench', { account, targetChainId: 8453 })
    const received: number[] = []
    const completed: number[] = []
    for (let i = 0; i < DEPOSITS; i++) {
      const receipt = await chains.transfer(1, user, usdc, account, 1_000_000n + BigInt(i))
      // The block exists once its receipt is back (automine): the clock starts here.
      const mined = performance.now()
      const tx = receipt.transactionHash
      const arrival = (type: string) =>
        receiver.received.find((hit) => {
          const body = hit.body as { type: string; data: { deposit?: { transactionHash?: string } } }
          return body.type === type && body.data.deposit?.transactionHash === tx
        })
      await receiver.waitFor(() => arrival('bridge-complete') !== undefined, 30_000)
      const offset = Date.now() - performance.now()
      received.push(arrival('deposit-received')!.receivedAt - offset - mined)
      completed.push(arrival('bridge-complete')!.receivedAt - offset - mined)
    }
    return { received, completed }
  } finally {
    await processor.stop()
    await receiver.close()
    await chains.stop()
  }
}

async function throughput() {
  const receiver = await startWebhookInbox()
  const secret = 'bench-secret'
  const results: Record<string, number> = {}
  try {
    const body = (i: number) =>
      JSON.stringify({
        version: '1.0',
        type: 'bridge-failed',
        eventId: `bare_${i}`,
        time: new Date().toISOString(),
        data: { i },
      })
    const post = (i: number) => {
      const raw = body(i)
      return fetch(receiver.url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'X-Webhook-Signature': signWebhookBody(secret, raw) },
        body: raw,
      }).then((r) => r.arrayBuffer())
    }
    let start = performance.now()
    for (let i = 0; i < EVENTS; i++) await post(i)
    results['bare loop, sequential'] = EVENTS / ((performance.now() - start) / 1000)

    start = performance.now()
    let next = 0
    await Promise.all(
      Array.from({ length: 8 }, async () => {
        while (next < EVENTS) await post(next++)
      }),
    )
    results['bare loop, 8 concurrent'] = EVENTS / ((performance.now() - start) / 1000)

    for (const durable of [false, true]) {
      const dir = durable ? mkdtempSync(join(tmpdir(), 'bench-outbox-')) : undefined
      const outbox = createWebhookOutbox({
        target: () => ({ url: receiver.url, secret }),
        stateDir: dir,
        concurrency: 8,
      })
      outbox.start()
      const before = receiver.received.length
      start = performance.now()
      for (let i = 0; i < EVENTS; i++) outbox.enqueue({ tenant: 'bench', type: 'bridge-failed', data: { i } })
      await receiver.waitFor(() => receiver.received.length - before === EVENTS, 120_000)
      results[`outbox (concurrency 8${durable ? ', state dir' : ', in memory'})`] =
        EVENTS / ((performance.now() - start) / 1000)
      await outbox.stop()
      if (dir) rmSync(dir, { recursive: true, force: true })
    }
  } finally {
    await receiver.close()
  }
  return results
}

const { received, completed } = await latency()
console.log(`Deposit block → webhook at the receiver (${DEPOSITS} deposits, poll every ${POLL_MS} ms):`)
console.log(
  `  deposit-received: median ${fmt(quantile(received, 0.5))} ms, p95 ${fmt(quantile(received, 0.95))} ms`,
)
console.log(
  `  bridge-complete:  median ${fmt(quantile(completed, 0.5))} ms, p95 ${fmt(quantile(completed, 0.95))} ms`,
)
const rates = await throughput()
console.log(`Signed webhook POSTs to a local receiver (${EVENTS} events each):`)
for (const [name, rate] of Object.entries(rates))
  console.log(`  ${name.padEnd(36)} ${rate.toFixed(0)} events/s`)
