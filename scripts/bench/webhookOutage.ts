/**
 * Bench: webhook delivery through a receiver outage (issue 13). Real Anvil chains (1, 8453), the
 * deposit processor with its outbox (default retry policy: 24 h of devnet clock, 0.5 s doubling up
 * to 1 h, equal jitter), a real HTTP receiver on loopback.
 *
 * - Baseline: `--deposits` deposits (each gives deposit-received … bridge-complete) and
 *   `--events` more events enqueued at once, the receiver up: lost, duplicates, time to deliver all.
 * - Outage: the receiver's port is closed (connections refused) for `--outage` seconds of devnet
 *   clock; the same deposits and events happen at its start; the devnet clock runs `--speed` times
 *   faster than the wall clock (moved in-process, as `POST /_devnet/clock/advance` does); then
 *   the receiver listens again on the same URL and the clock keeps running until every event is
 *   delivered or failed. Lost (an event the outbox has that the receiver never answered 2xx),
 *   duplicates (one eventId answered 2xx more than once), attempts, and time to drain after the
 *   receiver is back, in devnet and wall-clock time.
 *
 *   npx tsx scripts/bench/webhookOutage.ts [--deposits 20] [--events 500] [--outage 600] [--speed 20]
 *   (npm run bench:webhookOutage -- …)
 */
import { setTimeout as sleep } from 'node:timers/promises'
import { startWebhookInbox } from '../../conformance/runner/webhookReceiver'
import { createDepositProcessor } from '../../simulator/deposits/createDepositProcessor'
import { tenantIdOf } from '../../simulator/deposits/tenants'
import { startTestChains } from '../../simulator/deposits/testing/startTestChains'
import { DEFAULT_RETRY_POLICY } from '../../simulator/deposits/webhookOutbox'
import { createEventBus } from '../../simulator/events/eventBus'
import { createPriceTable } from '../../simulator/prices/prices'
import { createSystemClock } from '../../simulator/util/clock'
import type { WebhookEvent } from '../../spec'

const arg = (name: string, fallback: number) => {
  const index = process.argv.indexOf(`--${name}`)
  return index === -1 ? fallback : Number(process.argv[index + 1])
}
const DEPOSITS = arg('deposits', 20)
const EVENTS = arg('events', 500)
const OUTAGE_S = arg('outage', 600)
const SPEED = arg('speed', 20)
const TICK_MS = 100

const chains = await startTestChains([1, 8453])
const receiver = await startWebhookInbox()
const clock = createSystemClock()
const processor = createDepositProcessor({
  chains: chains.chains,
  prices: createPriceTable(),
  clock,
  events: createEventBus(),
  pollIntervalMs: 100,
})
const TENANT = 'bench'
const user = chains.keys.accounts[1]!
const account = chains.keys.accounts[2]!.address
const usdc = chains.token(1, 'USDC').address

/** The devnet clock runs SPEED times faster than the wall clock while `running` holds. */
let clockRunning = false
async function runClock() {
  while (clockRunning) {
    await sleep(TICK_MS)
    clock.advance((SPEED * TICK_MS) / 1000)
  }
}

/** Every event of the tenant (all pages). */
async function allEvents(): Promise<WebhookEvent[]> {
  const out: WebhookEvent[] = []
  let cursor: string | undefined
  do {
    const page = await processor.listWebhookEvents(TENANT, { limit: 500, cursor })
    out.push(...page.events)
    cursor = page.nextCursor ?? undefined
  } while (cursor)
  return out
}

/** Deposits (each paid out to 8453: deposit-received … bridge-complete) and directly enqueued events. */
async function produce(phase: string, deposits: number, events: number): Promise<void> {
  for (let i = 0; i < events; i++)
    processor.outbox.enqueue({ tenant: tenantIdOf(TENANT), type: 'bridge-failed', data: { phase, i } })
  for (let i = 0; i < deposits; i++) await chains.transfer(1, user, usdc, account, 1_000_000n + BigInt(i))
}

/**
 * Waits until the phase has its `expected` events and none is pending (all delivered or failed),
 * or `limitMs` passed; reports progress on stderr.
 */
async function settle(
  phaseEvents: (all: WebhookEvent[]) => WebhookEvent[],
  expected: number,
  limitMs: number,
) {
  const started = Date.now()
  let reported = 0
  let last = -1
  let lastChange = Date.now()
  for (;;) {
    const mine = phaseEvents(await allEvents())
    const open = mine.filter((e) => e.status === 'pending').length
    // Deposits give their events as they are paid out: done once none is pending and no new one came.
    if (mine.length >= expected && open === 0 && mine.length === last && Date.now() - lastChange > 3_000)
      return mine
    if (mine.length !== last) {
      last = mine.length
      lastChange = Date.now()
    }
    if (Date.now() - started > limitMs) return mine
    if (Date.now() - reported > 5_000) {
      reported = Date.now()
      process.stderr.write(`  ${mine.length}/${expected} events, ${open} pending\n`)
    }
    await sleep(200)
  }
}

/** Lost and duplicated eventIds of a phase, against what the receiver answered 2xx. */
function tally(events: WebhookEvent[]) {
  const answered = new Map<string, number>()
  for (const hook of receiver.received) {
    const id = (hook.body as { eventId?: string }).eventId ?? ''
    answered.set(id, (answered.get(id) ?? 0) + 1)
  }
  const lost = events.filter((e) => !answered.has(e.eventId)).length
  const duplicates = events.filter((e) => (answered.get(e.eventId) ?? 0) > 1).length
  const attempts = events.map((e) => e.attempts.length).sort((a, b) => a - b)
  const byStatus: Record<string, number> = {}
  for (const e of events) byStatus[e.status] = (byStatus[e.status] ?? 0) + 1
  return { lost, duplicates, attempts, byStatus }
}

const deliveredAt = (e: WebhookEvent) => {
  const ok = e.attempts.find((a) => a.statusCode !== undefined && a.statusCode >= 200 && a.statusCode < 300)
  return ok ? Date.parse(ok.time) : Number.NaN
}
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? 0

try {
  await processor.start()
  await chains.mint(1, usdc, user.address, 10n ** 12n)
  await processor.setup(TENANT, { webhookUrl: receiver.url, webhookSecret: 'bench-secret' })
  await processor.register(TENANT, { account, targetChainId: 8453 })
  // At least one event per deposit (each gives several as it is paid out) and every direct one.
  const expected = DEPOSITS + EVENTS

  process.stderr.write('baseline: receiver up\n')
  // Baseline: receiver up the whole time.
  let seen = new Set((await allEvents()).map((e) => e.eventId))
  const baseStart = Date.now()
  await produce('baseline', DEPOSITS, EVENTS)
  const baseEvents = await settle((all) => all.filter((e) => !seen.has(e.eventId)), expected, 120_000)
  const baseMs = Date.now() - baseStart
  const base = tally(baseEvents)

  // Outage: receiver down for OUTAGE_S of devnet clock, the same load at its start.
  seen = new Set((await allEvents()).map((e) => e.eventId))
  await receiver.down()
  process.stderr.write(`outage: receiver down for ${OUTAGE_S} s of devnet clock\n`)
  const downAt = clock.nowMs()
  clockRunning = true
  const clockLoop = runClock()
  await produce('outage', DEPOSITS, EVENTS)
  // Every deposit's two events exist (payouts do not wait for webhooks) before the receiver is back.
  for (;;) {
    const mine = (await allEvents()).filter((e) => !seen.has(e.eventId))
    if (mine.length >= expected + 2 * DEPOSITS || clock.nowMs() - downAt >= OUTAGE_S * 1000) break
    await sleep(200)
  }
  while (clock.nowMs() - downAt < OUTAGE_S * 1000) await sleep(50)
  const failedBeforeUp = (await allEvents()).filter(
    (e) => !seen.has(e.eventId) && e.status === 'failed',
  ).length
  await receiver.up()
  process.stderr.write('outage: receiver up again\n')
  const upAt = clock.nowMs()
  const upWall = Date.now()
  // Until every event is delivered or failed: at most the rest of the 24 h window, in wall time.
  const limitMs = ((DEFAULT_RETRY_POLICY.windowMs - (upAt - downAt)) / SPEED) * 1.1
  const outageEvents = await settle((all) => all.filter((e) => !seen.has(e.eventId)), expected, limitMs)
  const drainWallMs = Date.now() - upWall
  clockRunning = false
  await clockLoop
  const outage = tally(outageEvents)
  const drainDevnet = outageEvents.map((e) => deliveredAt(e) - upAt).filter((ms) => Number.isFinite(ms))

  const fmtS = (ms: number) => `${(ms / 1000).toFixed(1)} s`
  console.log(
    `\nWebhook delivery, ${DEPOSITS} deposits (their events as they are paid out) + ${EVENTS} events; outage ${OUTAGE_S} s of devnet clock at ${SPEED}x\n`,
  )
  console.log(
    '| Run | events | lost | duplicates | attempts/event (median, max) | statuses | time to deliver all |',
  )
  console.log('|---|---|---|---|---|---|---|')
  console.log(
    `| receiver up (baseline) | ${baseEvents.length} | ${base.lost} | ${base.duplicates} | ${median(base.attempts)}, ${base.attempts.at(-1)} | ${JSON.stringify(base.byStatus)} | ${fmtS(baseMs)} wall from the first event |`,
  )
  console.log(
    `| receiver down ${OUTAGE_S} s, then up | ${outageEvents.length} | ${outage.lost} | ${outage.duplicates} | ${median(outage.attempts)}, ${outage.attempts.at(-1)} | ${JSON.stringify(outage.byStatus)} | after the receiver is back: ${fmtS(Math.max(0, ...drainDevnet))} devnet (median ${fmtS(median(drainDevnet))}), ${fmtS(drainWallMs)} wall |`,
  )
  console.log(`\nfailed before the receiver came back: ${failedBeforeUp}`)
} finally {
  clockRunning = false
  await processor.stop()
  await receiver.close()
  await chains.stop()
}
