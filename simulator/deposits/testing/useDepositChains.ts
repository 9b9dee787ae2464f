import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Address } from 'viem'
import { afterAll, beforeAll } from 'vitest'
import { startWebhookInbox, type WebhookInboxReceiver } from '../../../conformance/runner/webhookReceiver'
import { createEventBus } from '../../events/eventBus'
import type { PriceTable } from '../../prices/prices'
import { createSystemClock } from '../../util/clock'
import { createDepositProcessor, type DepositProcessor } from '../createDepositProcessor'
import { startTestChains, type TestChains } from './startTestChains'

/** A webhook body as the deposit processor sends it. */
// biome-ignore lint/suspicious/noExplicitAny: the events' data differ by type; tests read what they check
export type Envelope = { type: string; eventId: string; data: Record<string, any> }

/**
 * What the deposit processor's tests run on: test chains 1 and 8453, a webhook inbox and a state
 * dir, made in the calling file's beforeAll and removed in its afterAll (read `chains`,
 * `receiver` and `dir` inside tests); `eventsOf(account)` are the webhook bodies the inbox got
 * about an account, `newProcessor(prices, stateDir?)` a processor on those chains (polled by hand).
 */
export function useDepositChains() {
  let chains: TestChains
  let receiver: WebhookInboxReceiver
  let dir: string
  beforeAll(async () => {
    chains = await startTestChains([1, 8453])
    receiver = await startWebhookInbox()
    dir = mkdtempSync(join(tmpdir(), 'deposits-'))
  })
  afterAll(async () => {
    await receiver?.close()
    await chains?.stop()
    rmSync(dir, { recursive: true, force: true })
  })
  const eventsOf = (account: Address) =>
    receiver.received
      .map((hit) => hit.body as Envelope)
      .filter((body) => body.data.account?.toLowerCase() === account.toLowerCase())
  function newProcessor(prices: PriceTable, stateDir?: string): DepositProcessor {
    return createDepositProcessor({
      chains: chains.chains,
      prices,
      clock: createSystemClock(),
      events: createEventBus(),
      stateDir,
      pollIntervalMs: null,
      webhooks: { retry: { baseDelayMs: 20, maxDelayMs: 100, timeoutMs: 2_000 } },
    })
  }
  return {
    get chains() {
      return chains
    },
    get receiver() {
      return receiver
    },
    get dir() {
      return dir
    },
    eventsOf,
    newProcessor,
  }
}
