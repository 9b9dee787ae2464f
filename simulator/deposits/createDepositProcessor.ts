import type {
  DepositListQuery,
  DepositProcessorConfig,
  DepositProcessorParams,
  DepositProcessorRegisterRequest,
  DepositProcessorRegisterResponse,
  DepositProcessorSetupResponse,
  WebhookEvent,
  WebhookEventList,
} from '../../spec'
import type { EventBus } from '../events/eventBus'
import type { PriceTable } from '../prices/prices'
import type { DepositProcessorConfiguration } from './configStore'
import { createDepositStore } from './createDepositStore'
import type { DepositView } from './depositRecord'
import { type DepositPage, getDeposit, listDeposits } from './listDeposits'
import type { PageQuery } from './paginate'
import { reconcileWithChains } from './reconcileWithChains'
import { registerAccount } from './registerAccount'
import { type ResolveWebhookTarget, resolveWebhookTarget } from './resolveWebhookTarget'
import { evaluateDeposit } from './rules'
import { setupTenant } from './setupTenant'
import { tenantIdOf } from './tenants'
import { createTokenDirectory } from './tokenDirectory'
import type { DepositChain, DepositContext, EvaluateDeposit } from './types'
import { watchDeposits } from './watchDeposits'
import { createWebhookOutbox, type RetryPolicy, type WebhookOutbox } from './webhookOutbox'

/** Parameters of {@link createDepositProcessor}. */
export type CreateDepositProcessorParameters = {
  /** Every chain to watch and pay out on, each with the relayer's shared sender (`send`). */
  chains: readonly DepositChain[]
  prices: PriceTable
  /** The devnet clock (timestamps of deposits and events). */
  clock: { nowMs(): number }
  /**
   * Decorators the composition root puts around the processor's parts: the deposit rules and
   * the webhook target (the simulator's fault injection, simulator/faultInjection/deposits.ts).
   */
  decorate?: DepositProcessorDecorators | undefined
  /** Each deposit step and webhook delivery attempt is published here (the explorer's live feed). */
  events: Pick<EventBus, 'publish'>
  /** With a dir, configuration, registrations, deposits, chain cursors and the outbox survive a restart. */
  stateDir?: string | undefined
  /** Milliseconds between polls; null: no automatic polling (call `pollOnce`). Default 250. */
  pollIntervalMs?: number | null | undefined
  /**
   * Milliseconds between polls while every chain's new blocks wake the watcher (chains with
   * `watchHeads`): the poll is the fallback then. Default 1000.
   */
  headsPollIntervalMs?: number | undefined
  /** Largest block range of one scan. Default 500. */
  maxBlockRange?: number | undefined
  webhooks?: { retry?: Partial<RetryPolicy> | undefined; concurrency?: number | undefined } | undefined
  /** Whether the chains may hold less than the processor's files (Devnet.chainsMayLag); absent: assume so. */
  chainsMayLag?: (() => boolean) | undefined
  /** Lines worth a log (what a restart found: see reconcileWithChains). */
  log?: ((line: string) => void) | undefined
  /** Called with errors of the automatic poll (the poll carries on). */
  onError?: ((error: unknown) => void) | undefined
}

/** Decorators of the processor's parts, each given the part and answering the part to use. */
export type DepositProcessorDecorators = {
  evaluate?: ((evaluate: EvaluateDeposit) => EvaluateDeposit) | undefined
  webhookTarget?: ((target: ResolveWebhookTarget) => ResolveWebhookTarget) | undefined
}

/** The deposit processor; every method taking `tenant` acts for that API key only. */
export type DepositProcessor = {
  /** Starts the outbox and the watcher; deposits accepted but not paid out before a restart are paid now. */
  start(): Promise<void>
  /** Stops polling and waits for the poll and deliveries in flight. */
  stop(): Promise<void>
  /** One pass: scan every chain up to its head, then pay out every accepted deposit. */
  pollOnce(): Promise<void>
  /** Applies a partial configuration update (spec: POST /deposit-processor/setup). */
  setup(tenant: string, params: DepositProcessorParams): Promise<DepositProcessorSetupResponse>
  /** The configuration, defaults applied and the secret masked, with the registered accounts. */
  getSetup(tenant: string): Promise<DepositProcessorConfig>
  /** The configuration as stored (secret in clear). */
  configuration(tenant: string): DepositProcessorConfiguration
  /** Registers an account: its deposits on any chain are bridged to `targetChainId`. */
  register(
    tenant: string,
    request: DepositProcessorRegisterRequest,
  ): Promise<DepositProcessorRegisterResponse>
  /** Deposits, newest first, filtered and paged (`cursor` is the previous page's `nextCursor`). */
  listDeposits(tenant: string, query?: DepositListQuery): Promise<DepositPage>
  /** One deposit, or undefined. */
  getDeposit(tenant: string, id: string): Promise<DepositView | undefined>
  /** Webhook events with their delivery attempts, newest first, paged. */
  listWebhookEvents(tenant: string, query?: PageQuery): Promise<WebhookEventList>
  /** Delivers one event again (same eventId and body, a fresh retry budget); undefined when there is no such event. */
  resendWebhookEvent(tenant: string, eventId: string): Promise<WebhookEvent | undefined>
  /** Queues a tenant's failed events again (at most `limit`); answers their ids. */
  resendFailedWebhookEvents(tenant: string, limit?: number): Promise<string[]>
  /** Queues a `test` event (`"test": true`) for the webhook (facts §1: POST /deposit-processor/webhooks/test). */
  sendTestEvent(tenant: string): Promise<WebhookEvent>
  /** The webhook outbox (benches and tests wait on its changes). */
  outbox: WebhookOutbox
}

/**
 * Creates the deposit processor: per-tenant configuration, a watcher over every chain, the
 * rules (TOKEN-3, BALANCE-3, BRIDGE-5), real payouts by the relayer on the target chain, and
 * the signed webhook outbox. It builds none of its collaborators: chains come with their
 * relayer's shared sender, and the clock is the devnet's.
 *
 * @example
 * const processor = createDepositProcessor({ chains, prices, clock: devnet, events, stateDir: '.state' })
 * await processor.start()
 * await processor.setup('api-key', { webhookUrl: 'http://127.0.0.1:9000/hook', webhookSecret: 's' })
 * await processor.register('api-key', { account, targetChainId: 8453 })
 */
export function createDepositProcessor(parameters: CreateDepositProcessorParameters): DepositProcessor {
  const { clock, events, decorate = {} } = parameters
  const tokens = createTokenDirectory(Object.fromEntries(parameters.chains.map((c) => [c.chainId, c.tokens])))
  const store = createDepositStore({ tokens, stateDir: parameters.stateDir, clock })
  const outbox = createWebhookOutbox({
    target: (decorate.webhookTarget ?? ((target) => target))(resolveWebhookTarget(store.config)),
    stateDir: parameters.stateDir,
    retry: parameters.webhooks?.retry,
    concurrency: parameters.webhooks?.concurrency,
    now: () => clock.nowMs(),
    events,
  })
  const context: DepositContext = {
    chains: new Map(parameters.chains.map((chain) => [chain.chainId, chain])),
    tokens,
    store,
    outbox,
    prices: parameters.prices,
    evaluate: (decorate.evaluate ?? ((evaluate) => evaluate))(evaluateDeposit),
    events,
  }
  const watcher = watchDeposits(context, {
    pollIntervalMs: parameters.pollIntervalMs === undefined ? 250 : parameters.pollIntervalMs,
    headsPollIntervalMs: parameters.headsPollIntervalMs ?? 1_000,
    maxBlockRange: parameters.maxBlockRange ?? 500,
    onError: parameters.onError,
  })
  let started = false

  return {
    async start() {
      if (started) return
      started = true
      // Only when the chains may lag the processor's files (a restore from an older save).
      if (parameters.chainsMayLag?.() ?? true)
        await reconcileWithChains(context, { log: parameters.log ?? (() => {}) })
      outbox.start()
      await watcher.start()
    },
    async stop() {
      started = false
      await watcher.stop()
      await outbox.stop()
      store.save()
    },
    pollOnce: watcher.pollOnce,
    setup: async (tenant, params) => setupTenant(context, tenantIdOf(tenant), params),
    getSetup: async (tenant) => store.config.read(tenantIdOf(tenant)),
    configuration: (tenant) => store.config.config(tenantIdOf(tenant)),
    register: async (tenant, request) => registerAccount(store, tenantIdOf(tenant), request),
    listDeposits: async (tenant, query = {}) => listDeposits(store, tenantIdOf(tenant), query),
    getDeposit: async (tenant, id) => getDeposit(store, tenantIdOf(tenant), id),
    listWebhookEvents: async (tenant, query = {}) => outbox.list(tenantIdOf(tenant), query),
    resendWebhookEvent: (tenant, eventId) => outbox.resend(tenantIdOf(tenant), eventId),
    resendFailedWebhookEvents: async (tenant, limit) => outbox.resendFailed(tenantIdOf(tenant), limit),
    sendTestEvent: async (tenant) =>
      outbox.enqueue({
        tenant: tenantIdOf(tenant),
        type: 'test',
        test: true,
        data: { message: 'Test event from intent-devnet.' },
      }),
    outbox,
  }
}
